"""The second wall around arbitrary SPARQL: the worker processes that run it have no network.

Even a query that slips past the check (service/sparql_safety.py) cannot fetch anything, because the process
running it cannot reach a network:

- netns: when the process may (root, or unprivileged user namespaces), it moves into a network namespace of
  its own, which holds nothing but a loopback interface that is down;
- seccomp: on any Linux, a seccomp filter makes every later `socket()` for an internet or packet family (and
  `io_uring_setup`, which could open one) fail with EACCES. The pipe to the web process exists before.

`close_network()` installs what this host allows and then checks itself: it tries to open a TCP socket and
to connect to loopback. The walls that hold are reported to the web process and shown in /healthz.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import platform
import socket
import struct

# prctl and seccomp constants (linux/prctl.h, linux/seccomp.h, linux/filter.h, linux/audit.h)
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_SECCOMP_RET_ALLOW = 0x7FFF0000
_SECCOMP_RET_ERRNO = 0x00050000
_BPF_LD_W_ABS = 0x20
_BPF_JEQ_K = 0x15
_BPF_RET_K = 0x06
_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
# machine -> (audit arch, socket syscall number, io_uring_setup syscall number)
_ARCH = {
    "x86_64": (0xC000003E, 41, 425),
    "aarch64": (0xC00000B7, 198, 425),
}
_DENIED_FAMILIES = (socket.AF_INET, socket.AF_INET6, 17)  # 17: AF_PACKET


def _filter(arch: int, nr_socket: int, nr_uring: int) -> bytes:
    """The BPF program: for this architecture, socket(AF_INET | AF_INET6 | AF_PACKET) and io_uring_setup fail
    with EACCES; every other call is allowed."""
    deny = _SECCOMP_RET_ERRNO | errno.EACCES
    prog = [
        (_BPF_LD_W_ABS, 0, 0, 4),  # A = seccomp_data.arch
        (_BPF_JEQ_K, 1, 0, arch),  # our architecture: go on; else allow
        (_BPF_RET_K, 0, 0, _SECCOMP_RET_ALLOW),
        (_BPF_LD_W_ABS, 0, 0, 0),  # A = seccomp_data.nr
        (_BPF_JEQ_K, 0, 1, nr_uring),
        (_BPF_RET_K, 0, 0, deny),
        (_BPF_JEQ_K, 1, 0, nr_socket),  # socket(): look at the family
        (_BPF_RET_K, 0, 0, _SECCOMP_RET_ALLOW),
        (_BPF_LD_W_ABS, 0, 0, 16),  # A = seccomp_data.args[0] (low half): the family
    ]
    for n, family in enumerate(_DENIED_FAMILIES):
        remaining = len(_DENIED_FAMILIES) - n - 1
        prog.append((_BPF_JEQ_K, remaining + 1, 0, family))  # a denied family: jump to the deny below
    prog += [(_BPF_RET_K, 0, 0, _SECCOMP_RET_ALLOW), (_BPF_RET_K, 0, 0, deny)]
    return b"".join(struct.pack("HBBI", *ins) for ins in prog)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def _seccomp() -> bool:
    arch = _ARCH.get(platform.machine())
    if arch is None or not hasattr(os, "uname") or os.uname().sysname != "Linux":
        return False
    code = _filter(*arch)
    buffer = ctypes.create_string_buffer(code, len(code))

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Prog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = _libc()
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return bool(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0)


def enter_namespace() -> bool:
    """Move this process into a network namespace of its own (nothing but a loopback that is down), where the
    host allows it."""
    return _netns()


def _netns() -> bool:
    libc = _libc()
    if libc.unshare(_CLONE_NEWNET) == 0:
        return True
    return bool(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0)  # unprivileged, where user namespaces exist


def _cannot_reach_network() -> dict[str, bool]:
    """What this process can still do: open an internet socket, connect to loopback."""
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return {"socket": False, "loopback": False}
    with probe:
        probe.settimeout(0.2)
        try:
            probe.connect(("127.0.0.1", 9))  # nothing listens there, but a reachable loopback refuses at once
            return {"socket": True, "loopback": True}
        except ConnectionRefusedError:
            return {"socket": True, "loopback": True}
        except OSError:
            return {"socket": True, "loopback": False}


def close_network(enabled: bool = True) -> list[str]:
    """Cut this process off the network as far as the host allows; returns the walls that hold ("netns",
    "seccomp"), checked by trying. A process forked inside a network namespace of its parent's keeps it (making
    a namespace per process is the slow part: tens of milliseconds, at times most of a second, under load)."""
    if not enabled:
        return []
    walls = []
    if not _cannot_reach_network()["loopback"] or _netns():  # a namespace of its own, made now or inherited
        state = _cannot_reach_network()
        if not state["loopback"]:
            walls.append("netns")
    if _seccomp():
        state = _cannot_reach_network()
        if not state["socket"]:
            walls.append("seccomp")
    return walls
