"""gunicorn settings for ``quiz serve`` (``gunicorn -c python:quiz.gunicorn_config``).

gevent workers: a classroom keeps one server-sent-events stream open per phone and per
projector, and a gevent worker holds thousands of idle streams where a thread-per-request
worker holds one per thread. Two workers match a two-core machine; set ``QUIZ_WORKERS`` to
the number of cores elsewhere.

Measured on a two-core machine with the load generator on the same cores (bench/answers.py,
32 connections, SQLite; req/s of question pages / answers, two rounds each): gevent x 2
666-955 / 544-685, gevent x 3 842-1,021 / 558-576, gthread (4 threads) x 2 854-893 /
400-463, gthread x 3 594-963 / 417-532; with 1,000 students answering at once
(bench/burst.py), the last answer took 1.75 s with two gevent workers and 2.0 s with three.
A third worker brought nothing on two cores, threads no more pages and fewer answers, and
they cannot hold a classroom's streams at all.

Every setting can be overridden by environment variables: ``QUIZ_BIND``, ``QUIZ_WORKERS``,
``QUIZ_WORKER_CLASS`` and ``QUIZ_THREADS`` (to measure other choices),
``QUIZ_WORKER_CONNECTIONS``.
"""

import os

bind = os.environ.get("QUIZ_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("QUIZ_WORKERS", "2"))
worker_class = os.environ.get("QUIZ_WORKER_CLASS", "gevent")
threads = int(os.environ.get("QUIZ_THREADS", "4"))  # gthread workers only
#: Open connections (streams included) one worker accepts at once.
worker_connections = int(os.environ.get("QUIZ_WORKER_CONNECTIONS", "2000"))
# A stream is idle for long stretches; these bound a stuck request, not an open stream.
timeout = 30
keepalive = 20
#: Seconds that running requests get to finish after SIGTERM before workers are killed.
graceful_timeout = 20
control_socket_disable = True
# One JSON object per request on stdout: time, method, path, status, bytes, duration.
accesslog = "-"
access_log_format = (
    '{"time":"%(t)s","remote":"%(h)s","method":"%(m)s","path":"%(U)s","query":"%(q)s",'
    '"status":%(s)s,"bytes":"%(B)s","duration_us":%(D)s,"agent":"%(a)s"}'
)
errorlog = "-"


def post_request(worker, req, environ, resp):
    """Let the worker's other connections have a turn before this one's next request.

    A gevent worker reads a kept-alive connection's next request at once when it has already
    arrived, so a client that sends request after request holds the worker while others
    wait: a tenth of a second and more at the 99th percentile in bench/answers.py. Yielding
    here serves ready connections in turn, for about a tenth of the throughput.
    """
    if type(worker).__name__ == "GeventWorker":
        import gevent

        gevent.sleep(0)


def on_starting(server):
    """Say so when the rate limits will not hold: without Redis each worker counts on its own."""
    if server.cfg.workers > 1 and not os.environ.get("REDIS_URL") and not os.environ.get("QUIZ_RATELIMIT_STORAGE_URI"):
        server.log.warning(
            "%d workers count rate limits each on its own, which multiplies every limit by %d: "
            "set REDIS_URL so that they share the counts",
            server.cfg.workers, server.cfg.workers,
        )


def post_worker_init(worker):
    """Say so when the Redis that shares the rate limits does not answer: the worker counts in its
    own memory until it does. Asked here, in the worker, because the Redis client must not be
    imported in the master before gevent patches the worker's sockets."""
    from quiz.extensions import limiter
    from quiz.web.health import rate_limit_storage_state

    if limiter.initialized and rate_limit_storage_state(limiter.storage) == "unreachable":
        uri = worker.wsgi.config["RATELIMIT_STORAGE_URI"]
        worker.log.warning(
            "the rate limit storage %s does not answer: this worker counts rate limits in its own memory "
            "until it does, and /healthz reports \"degraded\"",
            _without_password(uri),
        )


def _without_password(uri: str) -> str:
    """``uri`` safe for a log: a password in it is masked."""
    from urllib.parse import urlsplit

    password = urlsplit(uri).password
    return uri if password is None else uri.replace(f":{password}@", ":***@", 1)
