"""Web Push's transport: one message to one browser, through the push service its subscription
names (Mozilla's, Google's, Apple's...), which holds it until the browser is online.

The push service must not read the message, and must know who sends it: the payload is
encrypted to the browser's own keys (RFC 8291, ``aes128gcm``), and each request carries a JWT
signed with the site's key pair (VAPID, RFC 8292), the pair whose public key the browser
subscribed with. Both are a few calls into ``cryptography``: pywebpush depends on http-ece,
which has no wheel, and the locks install wheels only.

What becomes of a message (``Delivery``) follows the email outbox's rules
(``games.notifications``): refused or never connected is ``NOT_SENT``, to try again later;
handed over with no answer is ``UNKNOWN``, never sent again by itself; and the push service's
404 or 410 says the browser dropped the subscription, whose row goes (``GONE``).
"""

from __future__ import annotations

import base64
import enum
import http.client
import json
import logging
import os
import re
import time
from collections.abc import Mapping
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

from accounts.models import PushDevice
from games import clock

log = logging.getLogger(__name__)

URGENCIES = ("very-low", "low", "normal", "high")  # RFC 8030, 5.3
TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")  # RFC 8030, 5.4
# One record of 4096 bytes, what every push service takes: the header (86 bytes), the
# padding delimiter and the tag (17) leave this much for the payload.
RECORD_SIZE = 4096
MAX_PAYLOAD = RECORD_SIZE - 86 - 17
# A JWT may live up to 24 hours (RFC 8292); a shorter one is less use to whoever copies it.
JWT_LIFETIME = 12 * 3600


class Delivery(enum.Enum):
    """What became of a message handed to a push service (``send``)."""

    SENT = "sent"
    NOT_SENT = "not sent"  # certainly not delivered: try again later
    UNKNOWN = "fate unknown"  # handed over, no answer: never sent again by itself
    GONE = "gone"  # the browser dropped the subscription: its row is deleted


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64decode(text: str) -> bytes:
    """Browsers give their keys without padding, some with the standard alphabet's + and /."""
    text = text.strip().replace("+", "-").replace("/", "_").rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def generate_keys() -> tuple[str, str]:
    """A new VAPID key pair, (public, private) as the settings take them."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64encode(_public_bytes(key)), b64encode(private)


def private_key(private: str) -> ec.EllipticCurvePrivateKey:
    """The key of a 32-byte private number; ``ValueError`` when it is none."""
    raw = b64decode(private)
    if len(raw) != 32:
        raise ValueError(f"a P-256 private key is 32 bytes, not {len(raw)}")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def key_problem(public: str, private: str) -> str | None:
    """Why this pair cannot sign for the site, or None when it can."""
    try:
        key = private_key(private)
    except ValueError as error:
        return f"VAPID_PRIVATE_KEY is not a base64url P-256 private key ({error})"
    try:
        matches = b64decode(public) == _public_bytes(key)
    except ValueError:
        matches = False
    if not matches:
        return "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY"
    return None


def encrypt(
    payload: bytes,
    receiver: bytes,
    auth_secret: bytes,
    *,
    salt: bytes | None = None,
    sender: ec.EllipticCurvePrivateKey | None = None,
) -> bytes:
    """The body of a push message (RFC 8291): only the browser that holds the private key of
    ``receiver`` and ``auth_secret`` reads it. A fresh sender key and salt each time, so that
    no two messages share a content key; given, they reproduce the RFC's example."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"a push payload is at most {MAX_PAYLOAD} bytes, not {len(payload)}")
    if len(auth_secret) != 16:
        raise ValueError(f"an authentication secret is 16 bytes, not {len(auth_secret)}")
    sender = sender or ec.generate_private_key(ec.SECP256R1())
    salt = salt or os.urandom(16)
    sender_public = _public_bytes(sender)
    browser = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), receiver)
    shared = sender.exchange(ec.ECDH(), browser)
    info = b"WebPush: info\x00" + receiver + sender_public
    ikm = HKDF(hashes.SHA256(), 32, salt=auth_secret, info=info).derive(shared)
    cek = HKDF(hashes.SHA256(), 16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
    nonce = HKDF(hashes.SHA256(), 12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
    record = AESGCM(cek).encrypt(nonce, payload + b"\x02", None)  # \x02: the last record
    header = salt + RECORD_SIZE.to_bytes(4, "big") + bytes([len(sender_public)]) + sender_public
    return header + record


def vapid_authorization(endpoint: str) -> str:
    """The ``Authorization`` header that tells the push service who sends (RFC 8292): a JWT
    for the endpoint's origin alone, signed with the site's private key, and its public key,
    which the service compares with the one the browser subscribed with."""
    url = urlsplit(endpoint)
    claims = {
        "aud": f"{url.scheme}://{url.netloc}",
        # The push service's clock is the real one, whatever a test does to the site's.
        "exp": int(time.time()) + JWT_LIFETIME,
        "sub": settings.VAPID_SUBJECT,
    }
    header = {"typ": "JWT", "alg": "ES256"}
    signed = ".".join(b64encode(json.dumps(part).encode()) for part in (header, claims))
    der = private_key(settings.VAPID_PRIVATE_KEY).sign(signed.encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)  # a JWT's ES256 signature is r and s, 32 bytes each
    token = f"{signed}.{b64encode(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"
    return f"vapid t={token}, k={settings.VAPID_PUBLIC_KEY}"


def send(
    device: PushDevice,
    payload: Mapping[str, object],
    *,
    ttl: int,
    urgency: str,
    topic: str | None = None,
) -> Delivery:
    """Hand ``payload`` (JSON) to ``device``'s push service, which keeps it ``ttl`` seconds for
    a browser that is offline; a newer message with the same ``topic`` replaces one it still
    holds. Tells a failure before the hand-over (retry) from one after it (it may arrive)."""
    if urgency not in URGENCIES:
        raise ValueError(f"urgency is one of {URGENCIES}, not {urgency!r}")
    if ttl < 0:
        raise ValueError(f"ttl is a number of seconds, not {ttl}")
    if topic is not None and not TOPIC.fullmatch(topic):
        raise ValueError(f"a topic is 1 to 32 base64url characters, not {topic!r}")
    problem = key_problem(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY)
    if problem:
        log.error("no push message to device %s: %s", device.pk, problem)
        return Delivery.NOT_SENT
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"a push payload is at most {MAX_PAYLOAD} bytes, not {len(data)}")
    try:
        body = encrypt(data, b64decode(device.p256dh), b64decode(device.auth))
    except ValueError:  # no browser can have given them: no message will ever reach it
        log.warning("device %s has unusable keys: deleted", device.pk, exc_info=True)
        PushDevice.objects.filter(pk=device.pk).delete()
        return Delivery.GONE
    headers = {
        "Authorization": vapid_authorization(device.endpoint),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(ttl),
        "Urgency": urgency,
    }
    if topic is not None:
        headers["Topic"] = topic
    return _post(device, body, headers)


def _post(device: PushDevice, body: bytes, headers: dict[str, str]) -> Delivery:
    url = urlsplit(device.endpoint)
    kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    connection = kind(url.hostname or "", url.port, timeout=settings.PUSH_TIMEOUT)
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    try:
        try:
            connection.connect()  # name, TCP and TLS: nothing is handed over yet
        except OSError:
            log.warning("no connection to the push service %s", device.service, exc_info=True)
            return Delivery.NOT_SENT
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            status, answer = response.status, response.read(500)
        except (OSError, http.client.HTTPException):
            log.error(
                "no answer from the push service %s after a message to device %s: its fate is "
                "unknown (it may have arrived)",
                device.service,
                device.pk,
                exc_info=True,
            )
            return Delivery.UNKNOWN
    finally:
        connection.close()
    if 200 <= status < 300:
        device.last_used_at = clock.now()
        PushDevice.objects.filter(pk=device.pk).update(last_used_at=device.last_used_at)
        return Delivery.SENT
    if status in (404, 410):
        log.info("device %s unsubscribed (%s from %s): deleted", device.pk, status, device.service)
        PushDevice.objects.filter(pk=device.pk).delete()
        return Delivery.GONE
    # 429 and 5xx: the service is busy or down. Any other: it refused this request (a bad
    # key or JWT, too large), which the logs must show.
    level = logging.WARNING if status == 429 or status >= 500 else logging.ERROR
    log.log(level, "the push service %s answered %s: %r", device.service, status, answer)
    return Delivery.NOT_SENT
