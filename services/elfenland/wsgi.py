"""WSGI entry point: gunicorn 'services.elfenland.wsgi:app'."""
from services.elfenland.api import PLUGIN
from shared.http.service import create_app

app = create_app(PLUGIN)
