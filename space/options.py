"""The demo's options, declared here once (`add_arguments`) for both `swords demo` (cli.py) and `python space/app.py`
(app.py), and checked (`check`) before Gradio is even imported, so a bad host, a taken port or a missing results
folder is one line within a second."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import threading
from pathlib import Path

from swords_lexsub.arguments import port_number
from swords_lexsub.errors import SwordsError

DEFAULT_PORT = 7860  # Gradio's: with no port given it takes the first free one from here
HOST_ENV, PORT_ENV = "GRADIO_SERVER_NAME", "GRADIO_SERVER_PORT"  # Gradio reads these when no option is given
DEFAULT_HOST = "127.0.0.1"
LOOKUP_SECONDS = 10.0  # resolving a host name: a dead resolver must not hang the start


class DemoError(SwordsError):
    """An option of the demo that cannot work (one line, naming the option)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=port_number,
        default=None,
        help=f"port (default: ${PORT_ENV}, else the first free one from {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--host",
        default=None,
        help=f"address or name to listen on, 0.0.0.0 for every interface (default: ${HOST_ENV}, else {DEFAULT_HOST})",
    )
    parser.add_argument(
        "--results",
        default=None,
        metavar="FOLDER",
        help="folder of stored *.metrics.json and predictions (default: space/results)",
    )


# -- checks ---------------------------------------------------------------------------------------------


def _option(args: argparse.Namespace, name: str, env: str) -> tuple[str | None, str]:
    """(value, how to name it in a message) of --host or --port, given or from Gradio's variable."""
    if (given := getattr(args, name)) is not None:
        return str(given), f"--{name} {given}"
    if os.environ.get(env):
        return os.environ[env], f"${env}={os.environ[env]}"
    return None, ""


def _port(args: argparse.Namespace) -> tuple[int | None, str]:
    value, named = _option(args, "port", PORT_ENV)
    if value is None:
        return None, ""
    try:
        return port_number(value), named
    except argparse.ArgumentTypeError as error:
        raise DemoError(f"{named}: {error}") from None


def port_in_use(args: argparse.Namespace) -> str:
    port, named = _port(args)
    if port is None:
        return f"no free port from {DEFAULT_PORT}; choose one with --port N"
    source = "" if named.startswith("--") else f" ({named})"  # from Gradio's variable: say so
    return f"port {port}{source} is in use; choose another with --port N"


def _resolve(host: str, port: int, named: str) -> tuple:
    """The first socket address `host` resolves to, within LOOKUP_SECONDS."""
    answer: dict = {}

    def look_up() -> None:
        try:
            answer["addresses"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as error:  # gaierror; an over-long label is a UnicodeError
            answer["error"] = error

    lookup = threading.Thread(target=look_up, name="swords-demo-host-lookup", daemon=True)
    lookup.start()
    lookup.join(LOOKUP_SECONDS)
    if lookup.is_alive():
        raise DemoError(f"{named}: looking the host up took over {LOOKUP_SECONDS:g} s; give an address")
    if "error" in answer or not answer.get("addresses"):
        raise DemoError(f"{named}: not an address of this machine, nor a name that resolves to one")
    family, kind, protocol, _, address = answer["addresses"][0]
    return family, kind, protocol, address


def _check_address(args: argparse.Namespace) -> None:
    """Bind where the app will listen, as Gradio will (SO_REUSEADDR), and say which is wrong: the host or the port."""
    host, host_named = _option(args, "host", HOST_ENV)
    host, host_named = host or DEFAULT_HOST, host_named or f"the default host {DEFAULT_HOST}"
    port, port_named = _port(args)
    if ":" in host:  # Gradio writes the address into its own URL as http://HOST:PORT/, unbracketed
        raise DemoError(
            f"{host_named}: an IPv6 address, which Gradio cannot serve on; give an IPv4 address or a "
            "name (0.0.0.0 for every interface)"
        )
    family, kind, protocol, address = _resolve(host, port or 0, host_named)
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)  # with no port asked for, any free one: only the host is checked
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise DemoError(port_in_use(args)) from None
            if error.errno == errno.EACCES:
                raise DemoError(f"{port_named}: not allowed here (ports below 1024 need privileges)") from None
            if error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                resolved = "" if address[0] == host else f" ({host} is {address[0]})"
                raise DemoError(f"{host_named}: not an address of this machine{resolved}") from None
            raise DemoError(f"cannot listen on {host} port {port or 'any'}: {error.strerror}") from None


def check(args: argparse.Namespace) -> None:
    """Refuse, in one line naming the option, what would stop the demo later or let it start wrong."""
    if args.results is not None and not Path(args.results).exists():
        raise DemoError(f"--results {args.results}: no such folder")
    if args.results is not None and not Path(args.results).is_dir():
        raise DemoError(f"--results {args.results}: a file, not a folder")
    _check_address(args)
