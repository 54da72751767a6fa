"""WSGI entry point: gunicorn 'services.elastium.wsgi:app'."""
from services.elastium.api import PLUGIN
from shared.http.service import create_app

app = create_app(PLUGIN)
