"""WSGI entry point: gunicorn 'services.catan.wsgi:app'."""
from services.catan.api import PLUGIN
from shared.http.service import create_app

app = create_app(PLUGIN)
