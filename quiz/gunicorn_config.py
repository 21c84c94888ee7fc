"""gunicorn settings for ``quiz serve`` (``gunicorn -c python:quiz.gunicorn_config``).

gevent workers: a classroom keeps one server-sent-events stream open per phone and per
projector, and a gevent worker holds thousands of idle streams where a thread-per-request
worker would hold one per thread. Two workers match a two-core machine; set
``QUIZ_WORKERS`` to the number of cores elsewhere.

Every setting can be overridden by environment variables: ``QUIZ_BIND``, ``QUIZ_WORKERS``,
``QUIZ_WORKER_CONNECTIONS``.
"""

import os

bind = os.environ.get("QUIZ_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("QUIZ_WORKERS", "2"))
worker_class = "gevent"
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
