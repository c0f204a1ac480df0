"""The webhook verifier, with the vectors of the Java SDK's WebhookVerifierTest (computed independently)."""

import unittest

from herald import WebhookVerificationError, sign_webhook, verify_webhook

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
OTHER_SECRET = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24h"
ID = "evt_0123456789abcdef01234567"
TIMESTAMP = 1767225600
BODY = b'{"id":"evt_0123456789abcdef01234567","type":"post.published"}'
SIGNATURE = "v1=674adaea78bb4fb474c49f09afb91c2c58923e9edd990b8659430edc2de4bfb2"
OTHER_SIGNATURE = "v1=f2bb1d290179fe742f21c47f72689c25318d99e2c81cb23141de9cbf28e06475"


def headers(signature=SIGNATURE, timestamp=str(TIMESTAMP), msg_id=ID):
    return {"Webhook-Id": msg_id, "WEBHOOK-TIMESTAMP": timestamp, "webhook-signature": signature}


class WebhookVerifierTest(unittest.TestCase):
    def refused(self, reason, *args, **kwargs):
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(*args, **kwargs)
        self.assertEqual(reason, raised.exception.reason)

    def test_a_genuine_delivery_answers_its_event_id(self):
        self.assertEqual(ID, verify_webhook(BODY, headers(), SECRET, now=TIMESTAMP))
        self.assertEqual(ID, verify_webhook(BODY.decode(), headers(), [SECRET], now=TIMESTAMP + 300))

    def test_sign_matches_an_independently_computed_hmac(self):
        self.assertEqual(SIGNATURE, sign_webhook(SECRET, ID, TIMESTAMP, BODY))
        self.assertEqual(OTHER_SIGNATURE, sign_webhook(OTHER_SECRET, ID, TIMESTAMP, BODY))

    def test_any_signature_matching_any_secret_is_enough_during_a_rotation(self):
        both = f"{OTHER_SIGNATURE} {SIGNATURE}"
        self.assertEqual(ID, verify_webhook(BODY, headers(both), SECRET, now=TIMESTAMP))
        self.assertEqual(ID, verify_webhook(BODY, headers(SIGNATURE), [OTHER_SECRET, SECRET], now=TIMESTAMP))

    def test_a_tampered_body_or_another_secret_is_refused(self):
        self.refused("no_matching_signature", BODY.replace(b"published", b"failed"), headers(), SECRET,
                     now=TIMESTAMP)
        self.refused("no_matching_signature", BODY, headers(), OTHER_SECRET, now=TIMESTAMP)
        self.refused("no_matching_signature", BODY, headers(msg_id="evt_other"), SECRET, now=TIMESTAMP)

    def test_timestamps_outside_the_tolerance_are_refused(self):
        self.refused("timestamp_too_old", BODY, headers(), SECRET, now=TIMESTAMP + 301)
        self.refused("timestamp_too_new", BODY, headers(), SECRET, now=TIMESTAMP - 301)

    def test_missing_or_malformed_headers_are_refused(self):
        self.refused("missing_header", BODY, {"webhook-id": ID, "webhook-timestamp": str(TIMESTAMP)}, SECRET,
                     now=TIMESTAMP)
        self.refused("malformed_header", BODY, headers(timestamp="soon"), SECRET, now=TIMESTAMP)
        self.refused("malformed_header", BODY, headers(signature="v1," + SIGNATURE[3:]), SECRET, now=TIMESTAMP)


if __name__ == "__main__":
    unittest.main()
