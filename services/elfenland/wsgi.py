"""WSGI entry point: gunicorn 'services.elfenland.wsgi:app'."""
from services.elfenland.api import PLUGIN
from shared.service import create_app

app = create_app(PLUGIN)
