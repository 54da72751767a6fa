"""The image itself, built and started: ``deploy/Dockerfile`` built by podman on a Debian bookworm base
that ``mmdebstrap`` lays out (no image registry is reachable), then the image's own command started
(``podman run`` where the container runtime can set its rlimits, else from the image's root filesystem
under ``chroot`` as the image's user) against a private Redis.  ``make image`` runs the same
(``shared/ops/image.py``); ``make test`` installs podman, buildah and mmdebstrap when they are missing.

From nothing the build takes a couple of minutes (the base once, then pip in the image); podman keeps
the base and the layers, so a later run rebuilds only the layers whose sources changed.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shared.ops.manifests import USER_ID
from tests.e2e.conftest import ROOT


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_the_image_builds_starts_as_its_user_and_holds_no_offline_tool() -> None:
    built = subprocess.run([sys.executable, "-m", "shared.ops.image"], cwd=ROOT, capture_output=True, text=True,
                           timeout=1100)
    assert built.returncode == 0, built.stderr[-4000:]
    figures = {line["figure"]: line for line in map(json.loads, built.stdout.splitlines())}
    health = figures["image_healthz"]
    assert health["value"]["status"] == "ok" and health["value"]["engine_versions"], health
    assert health["uid"] == USER_ID != 0, health                       # gunicorn runs as the image's user
    assert health["started_by"] in ("podman run", "chroot"), health
    # The installed code is the services' and the platform's serving part only (the tools are checked
    # absent by shared.ops.image itself, and its exit status says so); a few MB, not the whole checkout.
    assert 0 < figures["image_installed_code_bytes"]["value"] < 10_000_000, figures
