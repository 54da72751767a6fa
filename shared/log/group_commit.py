"""Group commit: appends that arrive while another is on its way to Redis travel together.

A move's append is one EVALSHA, and on a busy process most of what it costs is the round trip
(a system call to send, a wake-up to read), not the script.  The first append to arrive becomes
the *leader*: it writes every append queued so far in one go and reads their replies in order.
Appends that arrive meanwhile queue; when the leader is done, the first of them leads the next
batch.  Alone, an append waits for nobody (a batch of one, sent as before); under load a batch
carries whatever came during one round trip.  Each script still runs on its own and atomically,
exactly as if it had been sent alone (a pipeline, not a transaction), and each caller gets its
own reply or its own error.

A batch that fails on the connection (a Redis restart, a timeout) fails every append in it
with that error, and each caller handles it as a lone append would: ``EventStore.append`` asks
the log whether its events landed.  The connection is then dropped, so a late reply is never
read as the answer to a later batch.
"""
from __future__ import annotations

import os
import threading
from typing import Any
from collections.abc import Callable

import redis
from redis.exceptions import NoScriptError

Reply = Any
RunOne = Callable[[list[str], list[Any], "redis.Redis[bytes]"], Reply]   # (keys, args, client) -> reply


class _Pending:
    """One caller's append, and what it is woken with: its reply, its error, or the lead."""

    __slots__ = ("keys", "args", "woken", "reply", "error", "leads")

    def __init__(self, keys: list[str], args: list[Any]) -> None:
        self.keys, self.args = keys, args
        self.woken = threading.Event()
        self.reply: Reply = None
        self.error: BaseException | None = None
        self.leads = False


class GroupCommit:
    """Runs one Lua script for many callers (threads or greenlets), batching those that overlap.

    ``run_one(keys, args, client)`` runs the script once (it loads the script when Redis lacks
    it); ``sha`` is the script's SHA1, for the batches; ``connection()`` gives the batches'
    client, a single-connection ``redis.Redis`` that only the leader uses.
    """

    def __init__(self, run_one: RunOne, sha: str, connection: Callable[[], redis.Redis[bytes]],
                 max_batch: int = 64) -> None:
        self.run_one = run_one
        self.sha = sha
        self.connection = connection
        self.max_batch = max_batch
        self.on_batch: Callable[[int], None] | None = None    # told each batch's size (the service's metrics)
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._queue: list[_Pending] = []
        self._leading = False

    def run(self, keys: list[str], args: list[Any]) -> Reply:
        """The script's reply for these keys and args (or its error), sent alone or in a batch."""
        if self._pid != os.getpid():
            self._reset()          # a forked child: the parent's queue and leader are not ours
        mine = _Pending(keys, args)
        with self._lock:
            self._queue.append(mine)
            leads = not self._leading
            self._leading = True
        if not leads:
            mine.woken.wait()
            leads = mine.leads     # woken to lead the next batch (the queue starts with us)
            if leads:
                mine.woken.clear()
        if leads:
            self._lead()
            mine.woken.wait()
        if mine.error is not None:
            raise mine.error
        return mine.reply

    def _lead(self) -> None:
        with self._lock:
            batch, self._queue = self._queue[:self.max_batch], self._queue[self.max_batch:]
        replies: list[Reply | BaseException]
        try:
            replies = self._send(batch)
        except BaseException as exc:  # noqa: BLE001 - every caller of the batch gets it, raised as theirs
            replies = [exc] * len(batch)
        if self.on_batch is not None:
            try:
                self.on_batch(len(batch))
            except Exception:  # noqa: BLE001 - counting must never cost a caller its reply
                pass
        with self._lock:
            if self._queue:
                following = self._queue[0]
                following.leads = True
                following.woken.set()
            else:
                self._leading = False
        for pending, reply in zip(batch, replies):
            if isinstance(reply, BaseException):
                pending.error = reply
            else:
                pending.reply = reply
            pending.woken.set()

    def _send(self, batch: list[_Pending]) -> list[Reply | BaseException]:
        client = self.connection()
        if len(batch) == 1:
            return [self._one(batch[0], client)]
        connection = client.connection
        assert connection is not None, "GroupCommit needs a single-connection client"
        try:
            connection.send_packed_command(connection.pack_commands(
                [("EVALSHA", self.sha, len(p.keys), *p.keys, *p.args) for p in batch]))
            replies: list[Reply | BaseException] = []
            for _ in batch:
                try:
                    replies.append(connection.read_response())
                except redis.ResponseError as exc:        # this script's error, not the batch's
                    replies.append(exc)
        except BaseException:
            connection.disconnect()       # replies still on their way must not meet the next batch
            raise
        # Redis lost its scripts (a restart, SCRIPT FLUSH): those appends again, one by one
        # (run_one loads the script; the others' replies stand).
        return [self._one(p, client) if isinstance(r, NoScriptError) else r for p, r in zip(batch, replies)]

    def _one(self, pending: _Pending, client: redis.Redis[bytes]) -> Reply | BaseException:
        try:
            return self.run_one(pending.keys, pending.args, client)
        except redis.ResponseError as exc:
            return exc
