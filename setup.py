"""The one part of the project's metadata that depends on what is being installed: the
``boardgames`` script is declared only where its module is.  The image leaves the command line out
(``.dockerignore``), so installing the image's tree must not put a script there that cannot import;
everything else is in pyproject.toml."""
from pathlib import Path

from setuptools import setup

CLI = Path(__file__).resolve().parent / "shared" / "client" / "cli.py"

setup(entry_points={"console_scripts": ["boardgames = shared.client.cli:main"]} if CLI.is_file() else {})
