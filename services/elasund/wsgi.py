"""WSGI entry point: gunicorn 'services.elasund.wsgi:app'."""
from services.elasund.api import PLUGIN
from shared.http.service import create_app

app = create_app(PLUGIN)
