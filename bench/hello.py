"""The smallest Flask app, served by ``bench/answers.py`` under the same gunicorn
configuration as ``quiz serve``: the ceiling that the app's pages are measured against.

    gunicorn -c python:quiz.gunicorn_config --pythonpath . bench.hello:app
"""

from flask import Flask

app = Flask(__name__)


@app.get("/hello")
def hello():
    return "hello"


@app.get("/healthz")
def health():
    return {"status": "ok"}
