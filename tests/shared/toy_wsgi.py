"""gunicorn 'tests.shared.toy_wsgi:app': the toy game as a real service, for fault tests."""
from shared.http.service import create_app
from tests.shared.toygame import PLUGIN

app = create_app(PLUGIN)
