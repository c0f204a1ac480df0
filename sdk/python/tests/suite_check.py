"""The Python SDK against a running Herald (system-tests' SdkPythonIT runs it against the suite):
HERALD_BASE_URL and HERALD_API_KEY (a test-mode key) come from the environment. Creates a profile, a sandbox
account in it and three posts, pages through the posts two at a time, and verifies a webhook delivery received on
127.0.0.1. Prints one line per check and exits non-zero on the first failure."""

import http.server
import os
import queue
import threading

from herald import Herald, NotFoundError, WebhookVerificationError, paginate, verify_webhook


def check(name, condition):
    if not condition:
        raise SystemExit(f"FAILED: {name}")
    print(f"ok: {name}")


def main():
    herald = Herald(os.environ["HERALD_BASE_URL"], os.environ["HERALD_API_KEY"])
    profile = herald.profiles.create_profile({"name": "SDK Python"})["data"]
    account = herald.accounts.create_sandbox_account(
        {"platform": "linkedin", "profile_id": profile["id"], "username": "brand"})["data"]
    check("a sandbox account in a new profile", account["profile_id"] == profile["id"])
    created = [herald.posts.create_post({"text": f"From the Python SDK {i}", "account_ids": [account["id"]]})["data"]
               for i in range(3)]
    check("three posts queued", [post["status"] for post in created] == ["queued"] * 3)

    pages = []

    def list_posts(**params):
        pages.append(params.get("cursor"))
        return herald.posts.list_posts(**params)

    listed = [post["id"] for post in paginate(list_posts, profile_id=profile["id"], limit=2)]
    check("every post, newest first, across two pages",
          listed == [post["id"] for post in reversed(created)] and len(pages) == 2)

    try:
        herald.posts.get_post("pst_0123456789abcdef01234567")
        check("an unknown post is NotFoundError", False)
    except NotFoundError as e:
        check("an unknown post is NotFoundError", e.code == "not_found")

    deliveries = queue.Queue()

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            deliveries.put(({name.lower(): value for name, value in self.headers.items()}, body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint = herald.webhooks.create_webhook_endpoint(
            {"url": f"http://127.0.0.1:{server.server_address[1]}/webhooks/herald", "events": ["post.published"]})
        endpoint = endpoint["data"]
        herald.webhooks.send_test_webhook(endpoint["id"], {})
        # The posts above may publish meanwhile, and their post.published deliveries reach the same receiver.
        headers, body = deliveries.get(timeout=30)
        while b'"type":"webhook.test"' not in body:
            headers, body = deliveries.get(timeout=30)
    finally:
        server.shutdown()
        server.server_close()
    event_id = verify_webhook(body, headers, endpoint["secret"])
    check("a webhook delivery verifies with the endpoint's secret", event_id == headers.get("webhook-id"))
    try:
        verify_webhook(body.replace(b"webhook.test", b"post.published"), headers, endpoint["secret"])
        check("a tampered body is refused", False)
    except WebhookVerificationError as e:
        check("a tampered body is refused", e.reason == "no_matching_signature")
    print("sdk-python suite check: all passed")


if __name__ == "__main__":
    main()
