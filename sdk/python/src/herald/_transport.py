"""The HTTP layer every generated operation sends through: standard library only (urllib)."""

import email.utils
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from .errors import HeraldConnectionError, error_from_response

_RETRYABLE = (429, 503)


def retry_after_seconds(value, now=None):
    """A Retry-After value (delay-seconds or an HTTP date) in seconds; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0, int(when.timestamp() - (time.time() if now is None else now)))


class Transport:
    """Sends one API request: the API key; a new ``Idempotency-Key`` for ``POST /posts`` (and a new
    ``idempotency_key`` for every batch item without one) unless the caller gave one; JSON in and out; 429 and 503
    sent again up to ``max_retries`` times after their ``Retry-After`` (or 1, 2, 4... seconds without one) unless that
    is longer than ``max_retry_delay``; any other error answer raised as a ``HeraldError`` subclass by its code."""

    def __init__(self, base_url, api_key, *, max_retries=2, max_retry_delay=30, timeout=60, sleep=time.sleep):
        base_url = base_url.rstrip("/")
        if not urllib.parse.urlsplit(base_url).path:
            base_url += "/api/v1"
        self.base_url = base_url
        self._api_key = api_key
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        self._sleep = sleep

    def request(self, method, path, *, path_params=None, query=None, headers=None, body=None):
        url = self.base_url + path.format(
            **{name: urllib.parse.quote(str(value), safe="") for name, value in (path_params or {}).items()})
        pairs = [(name, v) for name, value in (query or {}).items() if value is not None
                 for v in (value if isinstance(value, (list, tuple)) else [value])]
        if pairs:
            url += "?" + urllib.parse.urlencode([(name, _text(v)) for name, v in pairs])
        sent = {"Authorization": f"Bearer {self._api_key}", "Accept": "application/json",
                "User-Agent": "herald-sdk-python"}
        sent.update({name: str(value) for name, value in (headers or {}).items() if value is not None})
        if method == "POST" and path == "/posts" and "Idempotency-Key" not in sent:
            # One key per call: the retries below send the same one, so they never create the post twice.
            sent["Idempotency-Key"] = str(uuid.uuid4())
        if method == "POST" and path == "/posts/batch" and isinstance(body, dict):
            body = {**body, "posts": [item if item.get("idempotency_key") else
                                      {**item, "idempotency_key": str(uuid.uuid4())} for item in body["posts"]]}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["Content-Type"] = "application/json"
        retry = 0
        while True:
            status, answer_headers, raw = self._send(urllib.request.Request(url, data=data, headers=sent,
                                                                             method=method))
            if 200 <= status < 300:
                return json.loads(raw) if raw.strip() else None
            wait = retry_after_seconds(answer_headers.get("Retry-After"))
            retry += 1
            delay = wait if wait is not None else 2 ** (retry - 1)
            if status in _RETRYABLE and retry <= self.max_retries and delay <= self.max_retry_delay:
                self._sleep(delay)
                continue
            try:
                parsed = json.loads(raw) if raw.strip() else None
            except ValueError:
                parsed = None  # not JSON (a proxy's page, say): the error is known by its status only
            raise error_from_response(status, parsed, wait)

    def _send(self, request):
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, answer.headers, answer.read()
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise HeraldConnectionError(f"{request.get_method()} {request.full_url}: {e}") from e


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
