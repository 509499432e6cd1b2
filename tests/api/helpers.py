"""What the API's tests share: a program calling with a token, and the checks of its answers."""

import json

from django.test import Client

from api.tokens import create_token

API = "/api/v1"


class Caller:
    """A program with a token."""

    def __init__(self, user, scopes=("read", "play")):
        self.token, self.raw = create_token(user, "test", list(scopes))
        self.client = Client()

    def headers(self):
        return {"Authorization": f"Bearer {self.raw}"}

    def get(self, path):
        return self.client.get(API + path, headers=self.headers())

    def post(self, path, body=None, raw=None):
        data = raw if raw is not None else json.dumps(body or {})
        return self.client.post(
            API + path, data, content_type="application/json", headers=self.headers()
        )


def refusal(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["message"]
    return body["message"]


def read_exactly(model, data) -> None:
    """``data`` is read by ``model`` with nothing left out and nothing changed: an unknown key
    anywhere (which a schema would silently drop) or a value of another type fails, as
    ``extra="forbid"`` would, and so does any value the schema would change."""
    read = model.model_validate(data) if hasattr(model, "model_validate") else None
    if read is None:
        dumped = model.dump_python(model.validate_python(data), mode="json")
    else:
        dumped = read.model_dump(mode="json")
    assert dumped == data  # the engine's views are JSON already (lists, not tuples)
