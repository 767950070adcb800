"""The seccomp wall of the SPARQL workers (service/sparql/sandbox.py), tried in forked children: a process that
closed its network cannot open an internet socket, can still use a Unix one (its pipe's kind), and is killed
when it makes a system call through another architecture's gate (the hole a filter keyed only to x86-64
numbers leaves open to code that escaped)."""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import platform
import signal
import socket
from collections.abc import Callable

import pytest

from service.sparql import sandbox

pytestmark = pytest.mark.skipif(sandbox._libseccomp() is None, reason="libseccomp is not installed")


def in_child(probe: Callable[[], object], *, closed: bool = True) -> str:
    """What `probe` gave in a forked child (after it closed its network): its result, an errno name, or the
    signal that killed the child."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            walls = sandbox.close_network() if closed else []
            if closed and "seccomp" not in walls:
                os.write(write, b"no seccomp wall")
            else:
                try:
                    os.write(write, str(probe()).encode())
                except OSError as e:
                    os.write(write, errno.errorcode[e.errno or 0].encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return f"signal {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status) else said


def open_socket(family: int) -> Callable[[], str]:
    def probe() -> str:
        with socket.socket(family, socket.SOCK_STREAM):
            return "opened"

    return probe


def getpid_through_the_32_bit_gate() -> int:
    """i386 getpid (20) through `int 0x80`, as machine code that escaped into a worker could call it."""
    code = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(b"\xb8\x14\x00\x00\x00\xcd\x80\xc3")  # mov eax, 20; int 0x80; ret
    return int(ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(code)))())


def getpid_through_x32() -> int:
    return int(ctypes.CDLL("libc.so.6", use_errno=True).syscall(0x40000000 | 39))  # x32 getpid


def test_internet_sockets_are_refused_and_unix_sockets_are_not() -> None:
    assert in_child(open_socket(socket.AF_INET)) == "EACCES"
    assert in_child(open_socket(socket.AF_INET6)) == "EACCES"
    assert in_child(open_socket(socket.AF_UNIX)) == "opened"


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the 32-bit gate of an x86-64 process")
def test_a_call_through_another_architectures_gate_kills_the_worker() -> None:
    if not in_child(getpid_through_the_32_bit_gate, closed=False).isdigit():
        pytest.skip("this kernel has no 32-bit gate")
    assert in_child(getpid_through_the_32_bit_gate) == "signal SIGSYS"
    assert in_child(getpid_through_x32) == "signal SIGSYS"
