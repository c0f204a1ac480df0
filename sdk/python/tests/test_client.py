"""The hand-written layer against a local stand-in for the API answering what each test queues (offline)."""

import http.server
import json
import threading
import unittest

from herald import (AuthenticationError, ConflictError, Herald, HeraldError, InvalidRequestError, NotFoundError,
                    RateLimitedError, paginate)
from herald._transport import retry_after_seconds


class StandIn(http.server.BaseHTTPRequestHandler):
    answers = []
    seen = []

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        StandIn.seen.append((self.command, self.path, dict(self.headers), body))
        status, headers, text = StandIn.answers.pop(0)
        payload = text.encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, *args):
        pass


def error(code, message="No.", details=None):
    return json.dumps({"error": {"code": code, "message": message, "details": details or {}}, "request_id": "req_1"})


POST = json.dumps({"data": {"id": "pst_1", "status": "queued"}})


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        StandIn.answers.clear()
        StandIn.seen.clear()
        self.slept = []
        self.herald = Herald(f"http://127.0.0.1:{self.server.server_address[1]}", "sk_test_unit",
                             sleep=self.slept.append)

    def test_a_429_is_retried_after_its_retry_after_with_the_same_idempotency_key(self):
        StandIn.answers[:] = [(429, {"Retry-After": "3"}, error("rate_limit_exceeded")), (202, {}, POST)]
        post = self.herald.posts.create_post({"text": "Hi", "account_ids": ["acc_1"]})
        self.assertEqual("pst_1", post["data"]["id"])
        self.assertEqual([3], self.slept)
        keys = [headers["Idempotency-Key"] for _, _, headers, _ in StandIn.seen]
        self.assertEqual(2, len(keys))
        self.assertEqual(keys[0], keys[1])
        self.assertEqual("Bearer sk_test_unit", StandIn.seen[0][2]["Authorization"])
        self.assertEqual("/api/v1/posts", StandIn.seen[0][1])

    def test_a_503_without_retry_after_backs_off_and_gives_up_after_max_retries(self):
        StandIn.answers[:] = [(503, {}, error("service_unavailable"))] * 3
        with self.assertRaises(HeraldError) as raised:
            self.herald.usage.get_usage()
        self.assertEqual("service_unavailable", raised.exception.code)
        self.assertEqual([1, 2], self.slept)

    def test_each_post_and_batch_item_gets_its_own_idempotency_key_unless_given(self):
        StandIn.answers[:] = [(202, {}, POST), (202, {}, POST), (200, {}, json.dumps({"data": []}))]
        self.herald.posts.create_post({"text": "Hi", "account_ids": ["acc_1"]})
        self.herald.posts.create_post({"text": "Hi", "account_ids": ["acc_1"]}, idempotency_key="mine")
        self.herald.posts.create_post_batch({"posts": [{"text": "a"}, {"text": "b", "idempotency_key": "kept"}]})
        self.assertNotIn(StandIn.seen[0][2]["Idempotency-Key"], ("mine", None))
        self.assertEqual("mine", StandIn.seen[1][2]["Idempotency-Key"])
        items = json.loads(StandIn.seen[2][3])["posts"]
        self.assertTrue(items[0]["idempotency_key"])
        self.assertEqual("kept", items[1]["idempotency_key"])

    def test_a_wait_longer_than_allowed_is_the_callers_as_a_rate_limited_error(self):
        StandIn.answers[:] = [(429, {"Retry-After": "3600"}, error("usage_limit_exceeded"))]
        with self.assertRaises(RateLimitedError) as raised:
            self.herald.profiles.list_profiles()
        self.assertEqual(3600, raised.exception.retry_after)
        self.assertEqual([], self.slept)

    def test_errors_are_typed_by_their_code(self):
        StandIn.answers[:] = [
            (404, {}, error("not_found", "No such post.")),
            (422, {}, error("validation_failed", details={"errors": [{"field": "text", "code": "required"}]})),
            (409, {}, error("post_not_cancelable")),
            (401, {}, error("authentication_failed")),
            (500, {}, "<html>proxy</html>"),
        ]
        with self.assertRaises(NotFoundError) as raised:
            self.herald.posts.get_post("pst_missing")
        self.assertEqual("404 not_found: No such post. (request req_1)", str(raised.exception))
        with self.assertRaises(InvalidRequestError) as raised:
            self.herald.posts.validate_post({})
        self.assertEqual("text", raised.exception.details["errors"][0]["field"])
        self.assertRaises(ConflictError, self.herald.posts.cancel_post, "pst_1")
        self.assertRaises(AuthenticationError, self.herald.usage.get_usage)
        with self.assertRaises(HeraldError) as raised:
            self.herald.usage.get_usage()
        self.assertIs(HeraldError, type(raised.exception))
        self.assertEqual("http_500", raised.exception.code)

    def test_pages_follow_the_cursor_until_has_more_is_false_and_fetch_lazily(self):
        StandIn.answers[:] = [
            (200, {}, json.dumps({"data": [{"id": "prf_3"}, {"id": "prf_2"}],
                                  "meta": {"next_cursor": "c 1", "has_more": True}})),
            (200, {}, json.dumps({"data": [{"id": "prf_1"}], "meta": {"next_cursor": None, "has_more": False}})),
        ]
        profiles = paginate(self.herald.profiles.list_profiles, limit=2)
        self.assertEqual([], StandIn.seen)
        self.assertEqual(["prf_3", "prf_2", "prf_1"], [profile["id"] for profile in profiles])
        self.assertEqual(["/api/v1/profiles?limit=2", "/api/v1/profiles?limit=2&cursor=c+1"],
                         [path for _, path, _, _ in StandIn.seen])

    def test_retry_after_is_seconds_or_an_http_date(self):
        self.assertEqual(7, retry_after_seconds("7"))
        self.assertEqual(12, retry_after_seconds("Sat, 28 Nov 2026 10:00:12 GMT", now=1795860000))
        self.assertIsNone(retry_after_seconds("soon"))
        self.assertIsNone(retry_after_seconds(None))


if __name__ == "__main__":
    unittest.main()
