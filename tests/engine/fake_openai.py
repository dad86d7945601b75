"""A stdlib fake of the OpenAI chat-completions API on 127.0.0.1, scripted per request.

Each script item is a function `(request_body) -> reply` where reply is a message dict
({"content": ...} or {"tool_calls": [...]}) or the string "hang" (sleep past the client's timeout).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HANG_SECONDS = 5.0


def tool_call(call_id: str, name: str, arguments: dict | str) -> dict:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def final(status: str, answer: str, next_actions=(), sources=()) -> dict:
    return {"content": json.dumps({"status": status, "answer": answer, "next_actions": list(next_actions),
                                   "sources": list(sources)})}


class FakeOpenAI:
    def __init__(self):
        self.script: list = []
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                step = outer.script.pop(0) if outer.script else (lambda b: {"content": "{}"})
                reply = step(body)
                if reply == "hang":
                    time.sleep(HANG_SECONDS)
                    return
                message = {"role": "assistant", "content": reply.get("content")}
                finish = "stop"
                if reply.get("tool_calls"):
                    message["tool_calls"] = reply["tool_calls"]
                    finish = "tool_calls"
                data = json.dumps({
                    "id": f"chatcmpl-{len(outer.requests)}", "object": "chat.completion", "created": int(time.time()),
                    "model": body["model"], "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                }).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()
