"""In production an account must confirm its email before it can log in; in development not."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
PRINT = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps(settings.ACCOUNT_EMAIL_VERIFICATION))
"""


def verification_with(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in {"NYET_ENV", "DEBUG", "SITE_URL"}}
    environ.update(DJANGO_SETTINGS_MODULE="nyet_site.settings", **env)
    process = subprocess.run(
        [sys.executable, "-c", PRINT],
        cwd=PROJECT_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "optional"),
        (
            {
                "NYET_ENV": "production",
                "SECRET_KEY": "x" * 50,
                "DEBUG": "false",
                "SITE_URL": "https://nyet.example.org",
            },
            "mandatory",
        ),
    ],
    ids=["development", "production"],
)
def test_email_verification_is_mandatory_in_production_only(env, expected):
    assert verification_with(**env) == expected
