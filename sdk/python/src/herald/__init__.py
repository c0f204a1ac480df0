"""Herald's public API for Python: operation classes generated from the OpenAPI document, one per tag, on a
standard-library transport (API key, idempotency keys, retries honouring Retry-After, typed errors), with cursor
pagination as an iterator and the webhook signature verifier.

    from herald import Herald, paginate
    herald = Herald("https://herald.example.com/api/v1", api_key=os.environ["HERALD_API_KEY"])
    post = herald.posts.create_post({"text": "Hello", "account_ids": ["acc_..."]})["data"]
    for post in paginate(herald.posts.list_posts, limit=50): ...
"""

import importlib
import pkgutil

from ._generated import api as _api
from ._transport import Transport
from .errors import (AuthenticationError, ConflictError, HeraldConnectionError, HeraldError, InvalidRequestError,
                     NotFoundError, PermissionDeniedError, RateLimitedError, ServiceUnavailableError)
from .pagination import paginate
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = ["Herald", "paginate", "verify_webhook", "sign_webhook", "WebhookVerificationError", "HeraldError",
           "InvalidRequestError", "AuthenticationError", "PermissionDeniedError", "NotFoundError", "ConflictError",
           "RateLimitedError", "ServiceUnavailableError", "HeraldConnectionError"]


class Herald:
    """A client of one Herald API with one API key. Each tag of the API is an attribute named after it (``profiles``,
    ``accounts``, ``connect_sessions``, ``posts``, ``comments``, ``webhooks``, ``logs``, ``usage``): its generated
    operation class. Keyword options: max_retries (2), max_retry_delay (30 s), timeout (60 s)."""

    def __init__(self, base_url, api_key, **options):
        self.transport = Transport(base_url, api_key, **options)
        # Every module the generator wrote (posts_api.py: PostsApi) becomes an attribute (posts).
        for module in pkgutil.iter_modules(_api.__path__):
            if module.name.endswith("_api"):
                loaded = importlib.import_module(f"{_api.__name__}.{module.name}")
                cls_name = "".join(part.capitalize() for part in module.name.split("_"))
                setattr(self, module.name[: -len("_api")], getattr(loaded, cls_name)(self.transport))
