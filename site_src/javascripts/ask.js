/* The Ask box: posts a question to the /ask function and shows the answer with its sources.
 *
 * In: <section data-nz-ask data-ask-url data-timeout-seconds> (overrides/partials/ask.html), bound
 * again on every instant navigation through Material's document$ observable. Out: the answer, its
 * citations, next-action chips (clicking one asks it), styled by status, or a kind message when the
 * function fails, is unreachable or times out (AbortController).
 *
 * The answer arrives as markdown and as answer_html, rendered and sanitised by the function with
 * maintained libraries (markdown-it-py + nh3); it is sanitised once more here by the vendored
 * DOMPurify before it is attached. Citations and chips are built with textContent. Nothing from
 * the answer can add script or markup.
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

  function safeHref(url) {
    const raw = String(url);
    return /^https?:\/\/[^\s"'<>]+$/i.test(raw) ? raw : null;
  }

  /**
   * The answer as HTML: the function renders and sanitises it (markdown-it-py + nh3, the same code
   * as the FAQ pages); DOMPurify (vendored) sanitises it again here with the same allow-list, so a
   * compromised or older function still cannot add script or markup. Without answer_html the
   * answer is shown as plain text.
   */
  function attachAnswer(container, data, doc) {
    const purify = root.DOMPurify;
    if (typeof data.answer_html === "string" && purify && purify.isSupported) {
      container.appendChild(purify.sanitize(data.answer_html, {
        ALLOWED_TAGS, ALLOWED_ATTR: ["href", "title", "style", "start", "target", "rel"],
        ALLOWED_URI_REGEXP: /^https?:\/\//i, RETURN_DOM_FRAGMENT: true,
      }));
      for (const a of container.querySelectorAll("a")) { a.rel = "noopener noreferrer nofollow"; a.target = "_blank"; }
      for (const cell of container.querySelectorAll("[style]")) {
        const align = /text-align:\s*(left|right|center)/i.exec(cell.getAttribute("style") || "");
        cell.removeAttribute("style");
        if (align) cell.style.textAlign = align[1].toLowerCase();
      }
      return;
    }
    for (const para of String(data.answer || "").split(/\n{2,}/)) container.appendChild(el(doc, "p", "", para));
  }

  // ---------------------------------------------------------------------------------------------
  // The box.

  const history = [];

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
      const external = safeHref(link[2]);
      const internal = /^\/[^/]/.test(link[2]) ? link[2] : null;  // a page of this site
      return external || internal ? { label: link[1], href: external || internal, internal: !external } : { label: link[1], question: link[1] };
    }
    return { label: typeof a === "object" && a.label ? String(a.label) : text, question: text };
  }

  function renderAnswer(box, doc, question, data) {
    const out = box.querySelector(".nz-ask__answer");
    const status = Object.prototype.hasOwnProperty.call(STATUS_LABELS, data.status) ? data.status : "answered";
    out.replaceChildren();
    out.className = `nz-ask__answer nz-ask__answer--${status}`;
    const head = el(doc, "div", "nz-ask__head");
    head.appendChild(el(doc, "span", "nz-ask__status", STATUS_LABELS[status]));
    if (typeof data.tax_year === "string" && data.tax_year) head.appendChild(el(doc, "span", "nz-badge", `Tax year ${data.tax_year}`));
    out.appendChild(head);
    out.appendChild(el(doc, "p", "nz-ask__question", question));
    const body = el(doc, "div", "nz-ask__body");
    attachAnswer(body, data, doc);
    out.appendChild(body);

    const citations = Array.isArray(data.citations) ? data.citations : [];
    const links = citations.map((c) => c && safeHref(c.url) ? c : null).filter(Boolean);
    if (links.length) {
      out.appendChild(el(doc, "h3", "nz-ask__sources-title", "Sources"));
      const list = el(doc, "ol", "nz-ask__sources");
      for (const c of links) {
        const item = el(doc, "li");
        const a = el(doc, "a", "", String(c.title || c.url));
        a.href = safeHref(c.url);
        a.rel = "noopener noreferrer";
        a.target = "_blank";
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
          link.href = action.href;
          if (!action.internal) { link.rel = "noopener noreferrer"; link.target = "_blank"; }
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
    const progress = setTimeout(() => showMessage(box, doc, "Working on it…", "pending"), PROGRESS_AFTER_MS);
    button.disabled = true;
    box.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question, history: history.slice(-HISTORY_TURNS) }),
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
      if (typeof data.answer === "string") history.push({ question, answer: data.answer });
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
    }
  }

  const api = { safeHref, ALLOWED_TAGS };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
    return;
  }
  root.NZTaxAsk = api;
  // Instant navigation swaps the page content without reloading scripts: bind on every new page.
  if (typeof root.document$ !== "undefined" && root.document$.subscribe) {
    root.document$.subscribe(() => bind(root.document));
  } else if (root.document) {
    root.document.addEventListener("DOMContentLoaded", () => bind(root.document));
  }
})(typeof window !== "undefined" ? window : globalThis);
