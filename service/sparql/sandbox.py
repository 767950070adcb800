"""The second wall around arbitrary SPARQL: the worker processes that run it have no network.

Even a query that slips past the check (service/sparql_safety.py) cannot fetch anything, because the process
running it cannot reach a network:

- netns: when the process may (root, or unprivileged user namespaces), it moves into a network namespace of
  its own, which holds nothing but a loopback interface that is down;
- seccomp: on any Linux with libseccomp, a seccomp filter makes every later `socket()` for an internet or
  packet family (and `io_uring_setup`, which could open one) fail with EACCES, and kills the process at any
  system call made through another architecture's gate. The pipe to the web process exists before.

`close_network()` installs what this host allows and then checks itself: it tries to open a TCP socket and
to connect to loopback. The walls that hold are reported to the web process and shown in /healthz.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import functools
import socket

# libseccomp (seccomp.h): it writes the BPF program, with the checks a hand-written one misses (a system call
# made through another architecture's gate, such as the 32-bit `int 0x80` of an x86-64 process, or the x32 ABI,
# kills the process instead of slipping past a filter keyed to this architecture's numbers)
_SCMP_ACT_ALLOW = 0x7FFF0000
_SCMP_ACT_KILL_PROCESS = 0x80000000
_SCMP_FLTATR_ACT_BADARCH = 2
_SCMP_CMP_EQ = 4
_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
_DENIED_FAMILIES = (socket.AF_INET, socket.AF_INET6, 17)  # 17: AF_PACKET
_DENIED_CALLS = (b"io_uring_setup",)  # io_uring could open a socket without calling socket()


class _ArgCmp(ctypes.Structure):  # struct scmp_arg_cmp
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]  # fmt: skip


@functools.cache
def _libc() -> ctypes.CDLL:
    """Loaded once, by the zygote before it forks (finding a library by name runs ldconfig: milliseconds)."""
    return ctypes.CDLL("libc.so.6", use_errno=True)


@functools.cache
def _libseccomp() -> ctypes.CDLL | None:
    """libseccomp 2 (Debian's libseccomp2, which apt itself needs), or None where it is not installed."""
    for name in ("libseccomp.so.2", ctypes.util.find_library("seccomp")):
        if name:
            with contextlib.suppress(OSError):
                lib = ctypes.CDLL(name, use_errno=True)
                lib.seccomp_init.restype = ctypes.c_void_p
                lib.seccomp_init.argtypes = [ctypes.c_uint32]
                lib.seccomp_release.argtypes = [ctypes.c_void_p]
                lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
                lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
                lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                                       ctypes.POINTER(_ArgCmp)]  # fmt: skip
                lib.seccomp_load.argtypes = [ctypes.c_void_p]
                return lib
    return None


def _seccomp() -> bool:
    """socket(AF_INET | AF_INET6 | AF_PACKET) and io_uring_setup fail with EACCES; any system call through
    another architecture's gate kills the process; every other call is allowed. False when it cannot be set."""
    lib = _libseccomp()
    ctx = lib.seccomp_init(_SCMP_ACT_ALLOW) if lib is not None else None
    if lib is None or not ctx:
        return False
    try:
        deny = 0x00050000 | errno.EACCES  # SCMP_ACT_ERRNO(EACCES)
        nr_socket = lib.seccomp_syscall_resolve_name(b"socket")
        calls = [lib.seccomp_syscall_resolve_name(name) for name in _DENIED_CALLS]
        if lib.seccomp_attr_set(ctx, _SCMP_FLTATR_ACT_BADARCH, _SCMP_ACT_KILL_PROCESS) or min(nr_socket, *calls) < 0:
            return False
        for family in _DENIED_FAMILIES:
            if lib.seccomp_rule_add_array(ctx, deny, nr_socket, 1, ctypes.byref(_ArgCmp(0, _SCMP_CMP_EQ, family, 0))):
                return False
        if any(lib.seccomp_rule_add_array(ctx, deny, nr, 0, None) for nr in calls):
            return False
        return bool(lib.seccomp_load(ctx) == 0)  # sets no_new_privs first, as the kernel requires
    finally:
        lib.seccomp_release(ctx)


def load_libraries() -> None:
    """Load libc and libseccomp now, in a process that forks the workers that close their network."""
    _libc()
    _libseccomp()


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
