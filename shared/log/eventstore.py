"""The event log of every game, in Redis.

Layout (one hash tag per game, so a game lives in one Redis Cluster slot):

=====================  ======  ====================================================
``{g:<id>}:log``       stream  one entry per event, id ``0-<seq>``, field ``e`` = JSON
``{g:<id>}:meta``      hash    ``version``, ``head`` (hash of the last event), game name,
                               players, token hashes, status, to_act, engine version
``{g:<id>}:idem``      hash    idempotency field -> ``version|fingerprint|first_seq``
``{g:<id>}:snap``      string  JSON snapshot ``{version, engine_version, state}``: a cache
=====================  ======  ====================================================

Across games (single keys, outside the game's slot; never touched by a multi-key command):
``games:<title>:active`` (set: unfinished games, for the cap and the sweeper) and
``games:<title>:list:<status>`` (sorted sets by creation time: the listed games, ``all`` and one
per status, for ``GET /games``).

The log is never trimmed.  Appends go through one Lua script (``append.lua``) that checks the
expected version and the idempotency key and adds the events with sequential ids, so two
writers can never both succeed at the same version.

A game's keys may carry a TTL (see :mod:`shared.http.limits`): a game nobody moved in expires, a
finished one may be kept for a while only.  All four keys always share one lifetime: appends
(XADD, HSET) keep a key's TTL, and a snapshot is written with the meta's.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from shared.log import jsonout
from shared.log.group_commit import GroupCommit

GENESIS_HASH = "0" * 64
_APPEND_LUA = (Path(__file__).parent / "append.lua").read_text()

# KEYS: log, meta, idem, snap; ARGV[1] version, ARGV[2] seconds.  Only a game still at ``version``
# (nobody moved yet) gets the TTL: a move in between has made it permanent already.
_EXPIRE_UNMOVED_LUA = """
if redis.call('HGET', KEYS[2], 'version') ~= ARGV[1] then return 0 end
for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ARGV[2]) end
return 1
"""

# KEYS: meta, snap; ARGV[1] the document.  The snapshot lives as long as the game (SET alone would
# leave it without a TTL beside keys that expire), and is not written once the game has expired.
_SAVE_SNAPSHOT_LUA = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(previous: str, record: dict[str, Any]) -> str:
    """The chain link: covers the previous hash and every field of the record but ``hash``."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256((previous + canonical(body)).encode("utf-8")).hexdigest()


def snapshot_document(version: int, head: str, engine_version: str, state: Any) -> str:
    """A snapshot of ``state`` (JSON-compatible, from ``Game.dump``) right after event ``version``."""
    return canonical({"version": version, "head": head, "engine_version": engine_version, "state": state})


@dataclass(frozen=True)
class AppendResult:
    status: str            # "OK" | "CONFLICT" | "DUPLICATE"
    version: int           # new version (OK), current version (CONFLICT), original version (DUPLICATE)
    fingerprint: str = ""  # DUPLICATE: the original request's fingerprint
    first_seq: int = 0     # DUPLICATE: the first event the original request appended
    missed: tuple[dict[str, Any], ...] = ()   # CONFLICT: events after the expected version (up to 100)


class EventStore:
    def __init__(self, client: redis.Redis[bytes], connection_per_thread: bool = True,
                 appends_pool: redis.ConnectionPool | None = None) -> None:
        self.redis = client
        self._append = client.register_script(_APPEND_LUA)
        self._expire_unmoved = client.register_script(_EXPIRE_UNMOVED_LUA)
        self._save_snapshot = client.register_script(_SAVE_SNAPSHOT_LUA)
        self._own = threading.local()
        # Off under gevent: "threads" are then greenlets, one per client connection, and a
        # thousand clients watching the feed would each keep a Redis connection for nothing.
        self._per_thread = connection_per_thread
        # Appends (the move path) go through one connection per process, in batches when they
        # overlap (shared.log.group_commit), from a pool of their own (under gevent: never queued
        # behind the feed's readers in the bounded pool).  A Redis Cluster client routes each
        # append by its game's slot instead.
        self._appends_pool = appends_pool or (client.connection_pool if type(client) is redis.Redis else None)
        self._appender: tuple[int, redis.Redis[bytes]] | None = None
        self.appends = GroupCommit(self._run_append, self._append.sha, self._appends_client) \
            if self._appends_pool is not None else None

    def _run_append(self, keys: list[str], args: list[Any], client: redis.Redis[bytes]) -> Any:
        return self._append(keys=keys, args=args, client=client)

    def _appends_client(self) -> redis.Redis[bytes]:
        """This process's connection for appends (a fork's child opens its own)."""
        if self._appender is None or self._appender[0] != os.getpid():
            self._appender = (os.getpid(), redis.Redis(connection_pool=self._appends_pool,
                                                       single_connection_client=True))
        return self._appender[1]

    def _own_client(self) -> redis.Redis[bytes]:
        """This thread's own connection for reads (standalone Redis, threaded workers), else the
        shared client.

        A pooled client checks a connection out of the pool and back in on every command, which
        costs about as much client CPU as the command's own I/O; a request thread holds one
        connection instead (gunicorn's threads are few and long-lived).  A copy inherited
        across a fork is never used (the child opens its own), nor one of a replaced client.
        """
        if type(self.redis) is not redis.Redis or not self._per_thread:
            return self.redis                       # Redis Cluster routes by key; gevent: the bounded pool
        own = getattr(self._own, "client", None)
        if own is None or own[0] != os.getpid() or own[1] is not self.redis:
            own = (os.getpid(), self.redis, redis.Redis(connection_pool=self.redis.connection_pool,
                                                        single_connection_client=True))
            self._own.client = own
        return own[2]

    @property
    def _client(self) -> redis.Redis[bytes]:
        """``_own_client``, checked as the pool checks a connection at checkout: one with unread
        bytes, or one the server closed (a Redis restart), starts over instead of failing."""
        if not self._per_thread:
            return self.redis                       # gevent: reads share the bounded pool
        client = self._own_client()
        if client is self.redis:
            return client
        try:
            stale = client.connection.can_read()
        except redis.ConnectionError:
            stale = True
        if stale:
            client.connection.disconnect()
        return client

    # -- keys -----------------------------------------------------------------------------------
    @staticmethod
    def keys(game_id: str) -> tuple[str, str, str, str]:
        tag = "{g:" + game_id + "}"
        return tag + ":log", tag + ":meta", tag + ":idem", tag + ":snap"

    # -- writes ---------------------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, records: list[dict[str, Any]],
               meta: dict[str, str] | None = None, idempotency_field: str = "",
               fingerprint: str = "", expected_head: str = "") -> AppendResult:
        """Append ``records`` (already numbered from ``expected_version + 1`` and hashed).

        ``expected_head`` (the hash of event ``expected_version``) guards against appending onto a
        log that was rewritten to the same length, e.g. restored from an older backup.
        """
        if not records:
            # The script would set the head hash to "" and every later append would conflict.
            raise ValueError("append needs at least one event")
        log, meta_key, idem, _ = self.keys(game_id)
        meta = meta or {}
        head = records[-1]["hash"]
        args: list[Any] = [expected_version, idempotency_field, fingerprint, head, expected_head, len(meta)]
        for field, value in meta.items():
            args += [field, value]
        # Stored as plain JSON: the hash already covers the canonical form (see event_hash).
        args += [jsonout.dumps(r) for r in records]
        keys = [log, meta_key, idem]
        try:
            # Unchecked: the check is a system call, and a move makes exactly this one call.
            reply = self.appends.run(keys, args) if self.appends is not None else \
                self._append(keys=keys, args=args)
        except redis.ConnectionError:
            # The answer never came.  Either the script never reached Redis (a connection the
            # server had closed, e.g. across a restart) or it ran and the answer was lost.  Our
            # first event says which: its hash is salted, so no other append stores it.
            if self._holds(game_id, records[0]):
                return AppendResult("OK", records[-1]["seq"])
            reply = self._append(keys=keys, args=args, client=self._client)
        status, payload, *rest = reply
        status = status.decode() if isinstance(status, bytes) else status
        payload = payload.decode() if isinstance(payload, bytes) else payload
        if status == "DUPLICATE":
            return self._parse_idempotent(payload)
        missed = tuple(json.loads(dict(zip(f[::2], f[1::2]))[b"e"]) for _, f in rest[0]) if rest else ()
        return AppendResult(status, int(payload), missed=missed)

    def _holds(self, game_id: str, record: dict[str, Any]) -> bool:
        """Is ``record`` (numbered and hashed) in the log?"""
        seq = f"0-{record['seq']}"
        stored = _decode_entries(self._client.xrange(self.keys(game_id)[0], min=seq, max=seq))
        return bool(stored) and stored[0]["hash"] == record["hash"]

    @staticmethod
    def _parse_idempotent(raw: str) -> AppendResult:
        version, fingerprint, first = raw.split("|")
        return AppendResult("DUPLICATE", int(version), fingerprint, int(first))

    def idempotent_result(self, game_id: str, idempotency_field: str) -> AppendResult | None:
        """What an earlier request with this idempotency field appended, if any."""
        raw = self._client.hget(self.keys(game_id)[2], idempotency_field)
        return None if raw is None else self._parse_idempotent(raw.decode())

    # -- reads ----------------------------------------------------------------------------------
    def meta(self, game_id: str) -> dict[str, str] | None:
        return _decode_meta(self._client.hgetall(self.keys(game_id)[1]))

    def meta_and_tail(self, game_id: str, after: int) -> tuple[dict[str, str] | None, list[dict[str, Any]]]:
        """The meta hash and the events after ``after``, in one round trip."""
        log, meta_key, _, _ = self.keys(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(meta_key)
        pipe.xrange(log, min=f"0-{after + 1}", max="+")
        raw_meta, entries = pipe.execute()
        return _decode_meta(raw_meta), _decode_entries(entries)

    def meta_and_snapshot(self, game_id: str) -> tuple[dict[str, str] | None, dict[str, Any] | None]:
        """The meta hash and the snapshot, in one round trip (loading a game this process lacks)."""
        _, meta_key, _, snap_key = self.keys(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(meta_key)
        pipe.get(snap_key)
        raw_meta, raw_snapshot = pipe.execute()
        return _decode_meta(raw_meta), json.loads(raw_snapshot) if raw_snapshot else None

    def version(self, game_id: str) -> int:
        raw = self._client.hget(self.keys(game_id)[1], "version")
        return int(raw) if raw is not None else 0

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """Events with ``seq > after``, oldest first, at most ``limit``."""
        log = self.keys(game_id)[0]
        return _decode_entries(self._client.xrange(log, min=f"0-{after + 1}", max="+", count=limit))

    # -- snapshots (a disposable cache) ---------------------------------------------------------
    def save_snapshot(self, game_id: str, document: str) -> None:
        """Store a ``snapshot_document`` (written out by the caller while it still owns the state),
        with the game's TTL if it has one."""
        _, meta_key, _, snap_key = self.keys(game_id)
        self._save_snapshot(keys=[meta_key, snap_key], args=[document], client=self._client)

    def load_snapshot(self, game_id: str) -> dict[str, Any] | None:
        raw = self._client.get(self.keys(game_id)[3])
        return json.loads(raw) if raw else None

    def delete_snapshot(self, game_id: str) -> None:
        self._client.delete(self.keys(game_id)[3])

    # -- lifetimes (shared.http.limits) ----------------------------------------------------------------
    def expire_if_unmoved(self, game_id: str, version: int, seconds: int) -> bool:
        """Give the game's keys a TTL if it is still at ``version``; False: somebody moved already."""
        return bool(self._expire_unmoved(keys=list(self.keys(game_id)), args=[version, seconds],
                                         client=self._client))

    def set_lifetime(self, game_id: str, seconds: int | None) -> None:
        """Every key of the game expires in ``seconds``, or (None) never, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for key in self.keys(game_id):
            if seconds is None:
                pipe.persist(key)
            else:
                pipe.expire(key, seconds)
        pipe.execute()

    # -- the per-game-type index (outside the hot path; eventually consistent) -----------------
    @staticmethod
    def index_key(game_name: str) -> str:
        return f"games:{game_name}:active"

    def index_active(self, game_name: str, game_id: str, active: bool) -> None:
        key = self.index_key(game_name)
        if active:
            self.redis.sadd(key, game_id)
        else:
            self.redis.srem(key, game_id)

    def active_games(self, game_name: str) -> list[str]:
        return sorted(m.decode() for m in self.redis.smembers(self.index_key(game_name)))

    def count_active(self, game_name: str) -> int:
        """The index's size (SCARD, O(1)): may include games that expired since the last prune."""
        return int(self.redis.scard(self.index_key(game_name)))

    # -- the game list (GET /games; eventually consistent, checked against each meta on read) ---
    LIST_STATUSES = ("waiting", "active", "finished")

    @staticmethod
    def list_key(game_name: str, status: str) -> str:
        return f"games:{game_name}:list:{status}"

    def list_game(self, game_name: str, game_id: str, status: str, created_ms: int) -> None:
        """File a listed game under ``status`` (and ``all``), out of the other statuses; a
        ``cancelled`` game leaves the list."""
        pipe = self.redis.pipeline(transaction=False)
        for other in self.LIST_STATUSES:
            if other != status:
                pipe.zrem(self.list_key(game_name, other), game_id)
        if status in self.LIST_STATUSES:
            pipe.zadd(self.list_key(game_name, status), {game_id: created_ms})
            pipe.zadd(self.list_key(game_name, "all"), {game_id: created_ms})
        else:
            pipe.zrem(self.list_key(game_name, "all"), game_id)
        pipe.execute()

    def listed_games(self, game_name: str, status: str | None, limit: int,
                     before: tuple[int, str] | None = None) -> tuple[list[dict[str, str]], tuple[int, str] | None]:
        """Up to ``limit`` listed games (their metas, with ``id``), newest first, strictly after the
        cursor ``before`` = (created ms, id) in that order; and the cursor of the next page (None:
        no more).  Entries whose game expired, or whose status moved on, are dropped here."""
        key = self.list_key(game_name, status or "all")
        top: int | str = before[0] if before else "+inf"
        found: list[dict[str, str]] = []
        offset = 0
        while len(found) <= limit:
            chunk = self.redis.zrevrangebyscore(key, top, "-inf", start=offset, num=limit + 1, withscores=True)
            if not chunk:
                break
            offset += len(chunk)
            # Same millisecond as the cursor: ZREVRANGEBYSCORE orders ties by id, descending.
            chunk = [(m.decode(), int(score)) for m, score in chunk]
            chunk = [(m, sc) for m, sc in chunk if before is None or sc < before[0] or m < before[1]]
            pipe = self.redis.pipeline(transaction=False)
            for member, _ in chunk:
                pipe.hgetall(self.keys(member)[1])
            stale = []
            for (member, score), raw in zip(chunk, pipe.execute()):
                meta = _decode_meta(raw)
                if meta is None or not _filed_under(status or "all", meta.get("status")):
                    stale.append(member)      # expired, or filed under a status it has left
                    continue
                found.append({**meta, "id": member, "created_at": meta.get("created_at") or str(score)})
            if stale:
                self.redis.zrem(key, *stale)
                offset -= len(stale)
        more = len(found) > limit
        found = found[:limit]
        cursor = (int(found[-1]["created_at"]), found[-1]["id"]) if more and found else None
        return found, cursor

    LIST_KEYS = (*LIST_STATUSES, "all")

    def prune_listing(self, game_name: str, batch: int = 500) -> int:
        """Drop every list entry whose game is gone (expired) or filed under a status it has
        left; returns how many.  Reads the whole list: see ``prune_listing_step`` for a bounded pass."""
        dropped = 0
        for status in self.LIST_KEYS:
            cursor = None
            while cursor != 0:
                cursor, gone = self.prune_listing_step(game_name, status, cursor or 0, batch)
                dropped += gone
        return dropped

    def prune_listing_step(self, game_name: str, status: str, cursor: int, count: int) -> tuple[int, int]:
        """One ZSCAN step (about ``count`` entries) of the list under ``status`` (or ``all``) from
        ``cursor``, dropping the entries ``listed_games`` would drop on read; returns the next
        cursor (0: the list was walked through) and how many were dropped.  The sweeper walks the
        lists a step per pass, so a pass costs the same however long the lists are."""
        key = self.list_key(game_name, status)
        cursor, chunk = self.redis.zscan(key, cursor, count=count)
        if not chunk:
            return cursor, 0
        members = [member for member, _ in chunk]
        pipe = self.redis.pipeline(transaction=False)
        for member in members:
            pipe.hget(self.keys(member.decode())[1], "status")
        gone = [m for m, found in zip(members, pipe.execute())
                if not _filed_under(status, found.decode() if found else None)]
        if gone:
            self.redis.zrem(key, *gone)
        return cursor, len(gone)

    def prune_index(self, game_name: str, batch: int = 500) -> int:
        """Drop index entries whose game is gone (expired) or no longer active; returns how many.
        The game list is pruned of expired games at the same time (not counted).

        A game being created is indexed just before its first append, so this may drop it in
        between: ``GameRuntime.create`` indexes it again after the append.
        """
        key = self.index_key(game_name)
        dropped = 0
        members: list[bytes] = []
        for member in self.redis.sscan_iter(key, count=batch):
            members.append(member)
            if len(members) >= batch:
                dropped += self._prune_batch(key, members)
                members = []
        if members:
            dropped += self._prune_batch(key, members)
        self.prune_listing(game_name, batch)
        return dropped

    def _prune_batch(self, key: str, members: list[bytes]) -> int:
        pipe = self.redis.pipeline(transaction=False)
        for member in members:
            pipe.hget(self.keys(member.decode())[1], "status")
        # Waiting games (open seats) count toward the cap like running ones.
        gone = [m for m, status in zip(members, pipe.execute()) if status not in (b"active", b"waiting")]
        if gone:
            self.redis.srem(key, *gone)
        return len(gone)


def _filed_under(list_status: str, status: str | None) -> bool:
    """Whether a game whose meta says ``status`` (None: expired) belongs in the list under
    ``list_status`` (``all``: any listed status)."""
    return status in EventStore.LIST_STATUSES and list_status in ("all", status)


def _decode_meta(raw: dict[bytes, bytes]) -> dict[str, str] | None:
    return {k.decode(): v.decode() for k, v in raw.items()} if raw else None


def _decode_entries(entries: list[tuple[bytes, dict[bytes, bytes]]]) -> list[dict[str, Any]]:
    """XRANGE entries (as redis-py parses them) -> the stored records."""
    return [json.loads(fields[b"e"]) for _, fields in entries]
