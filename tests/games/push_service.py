"""A push service that runs in the test, and a browser's side of Web Push: what the tests of the
transport (test_push_transport.py) and of the outbox's push messages (test_push_outbox.py)
share. The decryption is the browser's side of RFC 8291, written from the RFC and proved on its
own example (test_push_transport.py)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from accounts.models import PushDevice

SUBJECT = "mailto:ops@nyet.example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def hkdf(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt=salt, info=info).derive(ikm)


def browser_decrypt(body: bytes, key: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """What a browser does with a push message (RFC 8291 section 3, RFC 8188): the sender's key
    is in the header, the rest follows from the browser's own key and secret."""
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    sender_public = body[21 : 21 + id_length]
    record = body[21 + id_length :]
    assert id_length == 65 and len(record) <= record_size, "one record, keyed by a P-256 point"
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
    shared = key.exchange(ec.ECDH(), sender)
    ikm = hkdf(shared, auth_secret, b"WebPush: info\x00" + point(key) + sender_public, 32)
    cek = hkdf(ikm, salt, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(ikm, salt, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(cek).decrypt(nonce, record, None)
    text, delimiter = padded.rstrip(b"\x00")[:-1], padded.rstrip(b"\x00")[-1:]
    assert delimiter == b"\x02", "the last record's delimiter"
    return text


class PushService(ThreadingHTTPServer):
    """Records each request (path, headers, body) and answers ``status``; with ``status`` None it
    reads the request and never answers, until the test ends; with "hang up", it closes the
    connection without a word."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.status: int | str | None = 201
        self.delay = 0.0  # seconds before each answer, after the request is recorded
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.received = threading.Event()
        self.release = threading.Event()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: PushService

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests.append((self.path, dict(self.headers.items()), body))
        self.server.received.set()
        if self.server.delay:
            time.sleep(self.server.delay)  # a slow push service, as a slow mail server
        if self.server.status is None:
            self.server.release.wait(30)  # the test's end, or else give up
            self.close_connection = True
            return
        if self.server.status == "hang up":
            self.close_connection = True
            return
        self.send_response(self.server.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@contextmanager
def running() -> Iterator[PushService]:
    """A push service on a free port, for the length of the block."""
    server = PushService()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def site_keys(settings) -> ec.EllipticCurvePublicKey:
    """The site's key pair, made here (not by the code under test), in ``settings``."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PUBLIC_KEY = b64(point(key))
    settings.VAPID_PRIVATE_KEY = b64(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_SUBJECT = SUBJECT
    settings.PUSH_TIMEOUT = 0.5  # the service that never answers: given up on after this
    return key.public_key()


class Browser:
    """A browser's side of a subscription: the key pair and the secret it gave the site."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscribe(self, user, endpoint: str) -> PushDevice:
        return PushDevice.objects.create(
            user=user,
            endpoint=endpoint,
            p256dh=b64(point(self.key)),
            auth=b64(self.auth),
            browser="Firefox on Linux",
        )


def jwt_claims(authorization: str, public_key: ec.EllipticCurvePublicKey) -> tuple[dict, str]:
    """The claims of the VAPID header's JWT once its signature is verified, and its ``k``."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64, "ES256 in a JWT: r and s, 32 bytes each"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public_key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64(claims)), fields["k"]
