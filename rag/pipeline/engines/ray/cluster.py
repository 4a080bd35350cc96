"""A connection to Ray for one build: an existing cluster, or a local instance started for it.

A cluster is reached through Ray Client (ray://host:port). A local instance runs inside this
process (ray.init), which is quicker and spares it Ray Client's known start-up race (a client's
server process can die while the head forks it, ray-project/ray#63202; connections are retried).

Every way this can fail (Ray not installed, nothing listening at the address, a refused token,
mismatched versions, a cluster without CPUs) ends in one UserError line before any work is sent.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from rag.errors import Fix, UserError

LOCAL_OBJECT_STORE_BYTES = 256 * 2**20  # holds an encoder and a window of work; more spills to disk
CONNECT_TIMEOUT_S = 5
CONNECT_ATTEMPTS = 3


@dataclass(frozen=True)
class RaySettings:
    address: str | None = None  # ray://host:port (Ray Client), host:port or auto; None: a local instance
    workers: int | None = None  # one per CPU of the cluster when None


def one_line(exc: BaseException) -> str:
    """An exception as one line: Ray's messages run to pages of tracebacks."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def endpoint(address: str) -> tuple[str, int] | None:
    """(host, port) that must accept a TCP connection for the address to work; None for `auto`."""
    if address == "auto":
        return None
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("ray", "tcp") or not parts.hostname:
        raise UserError(f"not a Ray address: {address!r} (expected ray://host:port, host:port or auto)")
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None:
        raise UserError(f"the Ray address {address!r} has no valid port (ray://host:10001, host:6379)")
    return parts.hostname, port


def check_reachable(address: str) -> None:
    """Fail fast: Ray itself waits 30 s or more, with pages of retries, before giving up on an address."""
    target = endpoint(address)
    if target is None:
        return
    try:
        socket.create_connection(target, timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UserError(
            f"no Ray cluster answers at {address} ({reason}); start one ({{fix}}) or fix the Ray "
            "address; the existing store is unchanged",
            Fix("ray-up"),
        ) from None


class RayConnection:
    """ray.init for one build, and ray.shutdown afterwards unless Ray was connected already (tests)."""

    def __init__(self, settings: RaySettings):
        if importlib.util.find_spec("ray") is None:
            raise UserError("the Ray engine needs Ray, an optional extra: {fix}", Fix("install-ray"))
        self.where = settings.address or "a local Ray instance"
        if settings.address:
            check_reachable(settings.address)
            if "RAY_AUTH_MODE" not in os.environ and {"RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"} & set(os.environ):
                # A token given means the cluster wants one. Ray reads the mode when it is imported.
                os.environ["RAY_AUTH_MODE"] = "token"
        elif "RAY_AUTH_MODE" not in os.environ:
            # Ray protects a local instance with a token by default, and saves one it generates in
            # ~/.ray; given one in the environment it writes nothing. One per process: Ray caches it.
            os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
        import ray

        self.ray = ray
        self.owned = not ray.is_initialized()
        if self.owned:
            self._init(settings)
        elif settings.address:
            raise UserError("this process is already connected to Ray; cannot connect to another cluster")
        self.cpus = int(ray.cluster_resources().get("CPU", 0))
        self.workers = settings.workers or self.cpus
        if self.cpus < 1:
            self.close()
            raise UserError(f"the Ray cluster at {self.where} has no CPUs (have its workers joined?)")
        if self.workers > self.cpus:
            self.close()
            raise UserError(
                f"--ray-workers {self.workers} needs {self.workers} CPUs; "
                f"the Ray cluster at {self.where} has {self.cpus}"
            )

    def _init(self, settings: RaySettings) -> None:
        # Ray's warnings at connection (a Python patch version that differs, a server thread without
        # a SIGTERM handler) are not the build's business; its errors still show.
        quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
        if not settings.address:
            from rag.index.encoder import available_cores

            # Ray warns that it turned token authentication on: that is the point, not news.
            logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
            self.ray.init(
                address="local",
                num_cpus=settings.workers or available_cores(),
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                **quiet,
            )
            return
        for attempt in range(1, CONNECT_ATTEMPTS + 1):
            try:
                self.ray.init(settings.address, **quiet)
                return
            except ConnectionError as exc:  # the head's client server failed to start one for us
                self.ray.shutdown()
                if attempt == CONNECT_ATTEMPTS:
                    raise UserError(
                        f"cannot connect to the Ray cluster at {self.where} "
                        f"({CONNECT_ATTEMPTS} attempts): {one_line(exc)}"
                    ) from None
            except Exception as exc:  # RuntimeError (versions), AuthenticationError, ...
                raise UserError(f"cannot connect to the Ray cluster at {self.where}: {one_line(exc)}") from None

    def close(self) -> None:
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()
