/* The Ask box: posts a question to the /ask function and shows the answer with its sources.
 *
 * In: <section data-nz-ask data-ask-url data-timeout-seconds> (overrides/partials/ask.html), bound
 * again on every instant navigation through Material's document$ observable. Out: the answer, its
 * citations, next-action chips (clicking one asks it), styled by status, or a kind message when the
 * function fails, is unreachable or times out (AbortController).
 *
 * A conversation: earlier questions and answers stay above the newest (the last HISTORY_TURNS of
 * them, exactly the turns sent as `history`, so a follow-up like "and fortnightly?" is read
 * against what the reader can see); "New question" clears them.
 *
 * The answer arrives as markdown and as answer_html, rendered and sanitised by the function with
 * maintained libraries (markdown-it-py + nh3); it is sanitised once more here by the vendored
 * DOMPurify before it is attached, configured through DOMPurify's own options and hooks (no
 * filtering of its output by hand). Citations and chips are built with textContent, their links
 * checked by the same DOMPurify policy. Nothing from the answer can add script or markup. Links
 * to this site's pages (the calculator links) open in the same tab; other sites in a new one.
 */
(function (root) {
  "use strict";

  const DEFAULT_ASK_URL = "http://127.0.0.1:8080/";
  const HISTORY_TURNS = 3;
  const PROGRESS_AFTER_MS = 300;
  // The tags an answer may contain: the same list as nztax.answer_html.ALLOWED_TAGS.
  const ALLOWED_TAGS = ["p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "blockquote", "hr"];
  const STATUS_LABELS = {
    answered: "Answer",
    needs_clarification: "A little more detail, please",
    out_of_scope: "Outside what this site covers",
    refused: "Can't help with that",
  };

  // Links an answer may carry: http(s) pages, and pages of this site by their root path ("/calculators/…",
  // the answer-to-calculator links); "//host", "/\host" and every other scheme lose their href. This is
  // DOMPurify's own URI check (it strips whitespace and control characters before testing), the same
  // policy as nh3's url_schemes + url_relative in nztax.answer_html.
  const ALLOWED_URI_REGEXP = /^(?:https?:\/\/|\/(?![/\\]))/i;
  const PURIFY_CONFIG = {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ["href", "title", "style", "start", "target", "rel"],
    ALLOWED_URI_REGEXP,
    RETURN_DOM_FRAGMENT: true,
  };
  const LINK_REL = "noopener noreferrer nofollow";
  // Table cells may be aligned (markdown's |--:|); no other style survives.
  const ALIGNABLE = new Set(["TH", "TD"]);
  const ALIGNMENTS = new Set(["left", "right", "center"]);

  /** Whether a link leaves this site (and so opens in a new tab). */
  function leavesSite(href) {
    try {
      return new URL(href, root.location.href).origin !== root.location.origin;
    } catch (e) {
      return true;
    }
  }

  /**
   * A private DOMPurify instance with the answer policy: its config (tags, attributes, URIs) and
   * two hooks from DOMPurify's hooks API. A style attribute is kept only as one text-align on a
   * table cell, read by the browser's own CSS parser; a link leaving the site opens in a new tab
   * without the opener, a link to this site's pages opens in the same tab.
   */
  let purifier = null;
  function answerPurifier() {
    if (purifier) return purifier;
    const factory = root.DOMPurify;
    if (!factory || !factory.isSupported || typeof factory !== "function") return null;
    purifier = factory(root);
    purifier.setConfig(PURIFY_CONFIG);
    purifier.addHook("uponSanitizeAttribute", (node, data) => {
      if (data.attrName !== "style") return;
      const style = node.style;
      const align = style && style.length === 1 && style[0] === "text-align" ? style.textAlign : "";
      if (ALIGNABLE.has(node.nodeName) && ALIGNMENTS.has(align)) data.attrValue = `text-align: ${align}`;
      else data.keepAttr = false;
    });
    purifier.addHook("afterSanitizeAttributes", (node) => {
      if (node.nodeName !== "A") return;
      const href = node.getAttribute("href");
      node.setAttribute("rel", LINK_REL);
      if (href !== null && leavesSite(href)) node.setAttribute("target", "_blank");
      else node.removeAttribute("target");
    });
    return purifier;
  }

  /** A URL as a link target under the answer policy (DOMPurify's own check), or null. */
  function linkTarget(url) {
    const purify = answerPurifier();
    const raw = String(url);
    return purify && purify.isValidAttribute("a", "href", raw) ? raw : null;
  }

  /** Same-tab for this site's pages; a new tab without the opener for other sites. */
  function setLinkTarget(a, href) {
    a.href = href;
    a.rel = LINK_REL;
    if (leavesSite(href)) a.target = "_blank";
  }

  /**
   * The answer as HTML: the function renders and sanitises it (markdown-it-py + nh3, the same code
   * as the FAQ pages); DOMPurify (vendored) sanitises it again here with the same allow-list, so a
   * compromised or older function still cannot add script or markup. Without answer_html the
   * answer is shown as plain text.
   */
  function attachAnswer(container, data, doc) {
    const purify = answerPurifier();
    if (typeof data.answer_html === "string" && purify) {
      container.appendChild(purify.sanitize(data.answer_html));
      return;
    }
    for (const para of String(data.answer || "").split(/\n{2,}/)) container.appendChild(el(doc, "p", "", para));
  }

  // ---------------------------------------------------------------------------------------------
  // The box.

  // Per box: the turns shown above the newest answer, oldest first ({question, answer} as sent).
  const conversations = new WeakMap();
  function turnsOf(box) {
    if (!conversations.has(box)) conversations.set(box, []);
    return conversations.get(box);
  }

  /** The shown answer (if it is a turn) moves up into the conversation; only the turns sent stay. */
  function archiveAnswer(box) {
    const out = box.querySelector(".nz-ask__answer");
    const thread = box.querySelector(".nz-ask__thread");
    if (!thread || !out || out.hidden || !out.dataset.turn) return;
    const item = out.ownerDocument.createElement("li");
    // Styled by status like the answer, under its own class so "the answer" always means the newest.
    item.className = `nz-ask__turn ${out.className.replace(/\bnz-ask__answer\b/, "").replace(/nz-ask__answer--/g, "nz-ask__turn--").trim()}`;
    for (const child of [...out.childNodes]) {
      if (child.classList && child.classList.contains("nz-ask__chips")) continue;  // chips belong to the newest answer only
      item.appendChild(child);
    }
    thread.appendChild(item);
    while (thread.children.length > HISTORY_TURNS) thread.removeChild(thread.firstElementChild);
    thread.hidden = false;
    out.replaceChildren();
    delete out.dataset.turn;
    out.hidden = true;
    const reset = box.querySelector(".nz-ask__reset");
    if (reset) reset.hidden = false;
  }

  function resetConversation(box) {
    turnsOf(box).length = 0;
    const thread = box.querySelector(".nz-ask__thread");
    if (thread) { thread.replaceChildren(); thread.hidden = true; }
    const out = box.querySelector(".nz-ask__answer");
    out.replaceChildren();
    delete out.dataset.turn;
    out.hidden = true;
    const reset = box.querySelector(".nz-ask__reset");
    if (reset) reset.hidden = true;
    const input = box.querySelector(".nz-ask__input");
    input.value = "";
    showLength(box);
    input.focus();
  }

  /** Under the box: how much of the question limit is used, once it is close. */
  function showLength(box) {
    const input = box.querySelector(".nz-ask__input");
    const out = box.querySelector(".nz-ask__length");
    const max = parseInt(input.getAttribute("maxlength"), 10);
    if (!out || !Number.isFinite(max)) return;
    const used = input.value.length;
    out.textContent = used >= max * 0.8 ? `${used.toLocaleString("en-NZ")} of ${max.toLocaleString("en-NZ")} characters` : "";
  }

  function el(doc, tag, className, text) {
    const e = doc.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function kindError(status, body, retryAfter) {
    const message = body && body.error && typeof body.error.message === "string" ? body.error.message : "";
    if (status === 400 || status === 413) return "That question couldn't be sent as it is" + (message ? `: ${message.replace(/[.\s]+$/, "")}.` : ".") + " Please rephrase it and try again.";
    if (status === 429) {
      const wait = parseInt(retryAfter, 10);
      return Number.isFinite(wait) && wait > 0
        ? `Lots of questions right now. Please wait ${wait} second${wait === 1 ? "" : "s"} and ask again; your question is still in the box.`
        : "Lots of questions right now. Please wait a minute and ask again; your question is still in the box.";
    }
    if (status === 503) return "The answer service isn't ready at the moment. The questions and calculators on this site still work; please try again shortly.";
    return "Something went wrong while answering. Please try again in a moment; the questions and calculators on this site still work.";
  }

  function showMessage(box, doc, text, kind) {
    const out = box.querySelector(".nz-ask__answer");
    out.replaceChildren();
    out.className = `nz-ask__answer nz-ask__answer--${kind}`;
    out.appendChild(el(doc, "p", "nz-ask__message", text));
    out.hidden = false;
  }

  /** A next action: a follow-up question, or a markdown link "[label](url)" that opens a page. */
  function readAction(a) {
    const text = typeof a === "string" ? a : a && typeof a === "object" ? String(a.question || a.label || a.text || "") : "";
    if (!text) return null;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(text.trim());
    if (link) {
      const href = linkTarget(link[2]);
      return href ? { label: link[1], href } : { label: link[1], question: link[1] };
    }
    return { label: typeof a === "object" && a.label ? String(a.label) : text, question: text };
  }

  function renderAnswer(box, doc, question, data) {
    const out = box.querySelector(".nz-ask__answer");
    const status = Object.prototype.hasOwnProperty.call(STATUS_LABELS, data.status) ? data.status : "answered";
    out.replaceChildren();
    out.className = `nz-ask__answer nz-ask__answer--${status}`;
    out.dataset.turn = "1";
    const head = el(doc, "div", "nz-ask__head");
    head.appendChild(el(doc, "span", "nz-ask__status", STATUS_LABELS[status]));
    if (typeof data.tax_year === "string" && data.tax_year) head.appendChild(el(doc, "span", "nz-badge", `Tax year ${data.tax_year}`));
    out.appendChild(head);
    out.appendChild(el(doc, "p", "nz-ask__question", question));
    const body = el(doc, "div", "nz-ask__body");
    attachAnswer(body, data, doc);
    out.appendChild(body);

    const citations = Array.isArray(data.citations) ? data.citations : [];
    const links = citations.filter((c) => c && linkTarget(c.url));
    if (links.length) {
      out.appendChild(el(doc, "h3", "nz-ask__sources-title", "Sources"));
      const list = el(doc, "ol", "nz-ask__sources");
      for (const c of links) {
        const item = el(doc, "li");
        const a = el(doc, "a", "", String(c.title || c.url));
        setLinkTarget(a, linkTarget(c.url));
        item.appendChild(a);
        if (c.section) item.appendChild(doc.createTextNode(` — ${String(c.section)}`));
        list.appendChild(item);
      }
      out.appendChild(list);
    }
    if (typeof data.disclaimer === "string" && data.disclaimer) out.appendChild(el(doc, "p", "nz-ask__disclaimer", data.disclaimer));

    const actions = (Array.isArray(data.next_actions) ? data.next_actions : []).slice(0, 3).map(readAction).filter(Boolean);
    if (actions.length) {
      const chips = el(doc, "div", "nz-ask__chips");
      for (const action of actions) {
        if (action.href) {
          // A link chip ("Read IRD's guidance on GST") opens its page; it is not a question.
          const link = el(doc, "a", "nz-chip nz-chip--link", action.label);
          setLinkTarget(link, action.href);
          chips.appendChild(link);
          continue;
        }
        const chip = el(doc, "button", "nz-chip", action.label);
        chip.type = "button";
        chip.addEventListener("click", () => {
          box.querySelector(".nz-ask__input").value = action.question;
          ask(box, doc, action.question, { focusAnswer: true });
        });
        chips.appendChild(chip);
      }
      out.appendChild(chips);
    }
    out.hidden = false;
  }

  async function ask(box, doc, question, options = {}) {
    const url = box.getAttribute("data-ask-url") || DEFAULT_ASK_URL;
    const seconds = parseFloat(box.getAttribute("data-timeout-seconds")) || 30;
    const button = box.querySelector(".nz-ask__submit");
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), seconds * 1000);
    // Most answers arrive in milliseconds: show progress only when one takes noticeably long.
    const history = turnsOf(box);
    archiveAnswer(box);
    const progress = setTimeout(() => showMessage(box, doc, "Working on it…", "pending"), PROGRESS_AFTER_MS);
    button.disabled = true;
    box.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question, history: history.slice(-HISTORY_TURNS) }),  // the turns shown above
        signal: controller.signal,
      });
      let data = null;
      try { data = await response.json(); } catch (e) { data = null; }
      clearTimeout(progress);
      if (!response.ok || !data || typeof data !== "object" || data.error) {
        showMessage(box, doc, kindError(response.status, data, response.headers.get("Retry-After")), "error");
        return;
      }
      renderAnswer(box, doc, question, data);
      if (options.focusAnswer) box.querySelector(".nz-ask__answer").focus();
      if (typeof data.answer === "string") {
        history.push({ question, answer: data.answer });
        if (history.length > HISTORY_TURNS + 1) history.splice(0, history.length - HISTORY_TURNS - 1);
      } else delete box.querySelector(".nz-ask__answer").dataset.turn;
    } catch (err) {
      const timedOut = err && err.name === "AbortError";
      showMessage(box, doc, timedOut
        ? "That is taking longer than it should. Please try again, or browse the questions and calculators on this site."
        : "Couldn't reach the answer service. Check your connection and try again; the questions and calculators on this site work without it.", "error");
    } finally {
      clearTimeout(progress);
      clearTimeout(timer);
      button.disabled = false;
      box.removeAttribute("aria-busy");
    }
  }

  function bind(doc) {
    for (const box of doc.querySelectorAll("[data-nz-ask]")) {
      if (box.dataset.bound) continue;
      box.dataset.bound = "1";
      box.querySelector(".nz-ask__form").addEventListener("submit", (event) => {
        event.preventDefault();
        const question = box.querySelector(".nz-ask__input").value.trim();
        if (question) ask(box, doc, question);
      });
      const input = box.querySelector(".nz-ask__input");
      input.addEventListener("input", () => showLength(box));
      showLength(box);  // what was typed before this code arrived
      const reset = box.querySelector(".nz-ask__reset");
      if (reset) reset.addEventListener("click", () => resetConversation(box));
    }
  }

  const api = { ALLOWED_TAGS, ALLOWED_URI_REGEXP, linkTarget, leavesSite };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
    return;
  }
  root.NZTaxAsk = api;
  // Loaded on first use of the box (partials/ask-on-demand.html), usually after the page is parsed:
  // bind the box on the page now, and on every page instant navigation swaps in.
  if (root.document && root.document.readyState !== "loading") bind(root.document);
  if (typeof root.document$ !== "undefined" && root.document$.subscribe) {
    root.document$.subscribe(() => bind(root.document));
  } else if (root.document) {
    root.document.addEventListener("DOMContentLoaded", () => bind(root.document));
  }
})(typeof window !== "undefined" ? window : globalThis);
