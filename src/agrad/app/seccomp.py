"""The second wall: a seccomp-bpf filter for the contained child (Linux only).

Installed through ctypes (no new dependency) after ``PR_SET_NO_NEW_PRIVS``,
once the child has set its resource limits and before any script code runs.
Even a script that escaped the language (the real ``exec``) then cannot:

* start a program or a process: ``execve``, ``execveat``, ``fork``,
  ``vfork`` and ``clone`` without ``CLONE_THREAD`` end the process
  (``SIGSYS``); threads (numpy's BLAS pool, the script's worker thread)
  still start;
* trace another process: ``ptrace`` ends the process; signal another
  process: ``kill``/``tgkill`` to any other pid, ``tkill`` and
  ``pidfd_send_signal`` fail with ``EPERM``;
* open a socket: ``socket``, ``socketpair``, ``connect``, ``bind``,
  ``listen``, ``accept`` fail with ``EPERM``;
* change a file: ``open``/``openat`` with ``O_WRONLY``, ``O_RDWR``,
  ``O_CREAT`` or ``O_TRUNC``, ``creat``, ``unlink``, ``rename``, ``link``,
  ``mkdir``, ``truncate``, ... fail with ``EPERM`` (reading stays allowed:
  the engine and numpy read their own files);
* get around the filter: ``clone3`` and ``openat2`` (whose flags live in
  memory a filter cannot read) and ``io_uring_setup`` fail with ``ENOSYS``
  (glibc then falls back to ``clone`` for threads); a system call of
  another ABI (x86 ``int 0x80``, x32) ends the process.

Only x86-64 and aarch64 are known; elsewhere :func:`install` returns False
and the child runs under its resource limits alone.
"""

from __future__ import annotations

import errno
import os
import struct

# seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
_NR, _ARCH = 0, 4


def _arg(i: int) -> int:
    return 16 + 8 * i   # the low 32 bits (little-endian): flags are ints


AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}

# system call numbers (asm/unistd_64.h; aarch64: asm-generic/unistd.h)
_X86_64 = {
    "open": 2, "openat": 257, "creat": 85, "socket": 41, "connect": 42, "accept": 43, "bind": 49,
    "listen": 50, "socketpair": 53, "accept4": 288, "clone": 56, "fork": 57, "vfork": 58,
    "execve": 59, "execveat": 322, "ptrace": 101, "process_vm_writev": 311,
    "rename": 82, "renameat": 264, "renameat2": 316, "unlink": 87, "unlinkat": 263,
    "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266, "mkdir": 83, "mkdirat": 258,
    "rmdir": 84, "mknod": 133, "mknodat": 259, "truncate": 76,
    "io_uring_setup": 425, "clone3": 435, "openat2": 437,
    "kill": 62, "tkill": 200, "tgkill": 234, "pidfd_send_signal": 424,
}
_AARCH64 = {
    "openat": 56, "socket": 198, "socketpair": 199, "bind": 200, "listen": 201, "accept": 202,
    "connect": 203, "accept4": 242, "clone": 220, "execve": 221, "execveat": 281, "ptrace": 117,
    "process_vm_writev": 271, "renameat": 38, "renameat2": 276, "unlinkat": 35, "linkat": 37,
    "symlinkat": 36, "mkdirat": 34, "mknodat": 33, "truncate": 45,
    "io_uring_setup": 425, "clone3": 435, "openat2": 437,
    "kill": 129, "tkill": 130, "tgkill": 131, "pidfd_send_signal": 424,
}
SYSCALLS = {"x86_64": _X86_64, "aarch64": _AARCH64}

KILL = ("execve", "execveat", "fork", "vfork", "ptrace", "process_vm_writev")
DENY = ("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "creat",
        "rename", "renameat", "renameat2", "unlink", "unlinkat", "link", "linkat", "symlink",
        "symlinkat", "mkdir", "mkdirat", "rmdir", "mknod", "mknodat", "truncate", "tkill",
        "pidfd_send_signal")
NOSYS = ("clone3", "openat2", "io_uring_setup")

CLONE_THREAD = 0x00010000
O_WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000   # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC

# classic BPF
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06

RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
_X32_SYSCALL_BIT = 0x40000000


def machine() -> str | None:
    """``x86_64`` or ``aarch64`` when the filter knows this machine, else None."""
    m = os.uname().machine.lower()  # not platform.machine(): importing platform costs ~3 ms
    m = {"amd64": "x86_64", "arm64": "aarch64"}.get(m, m)
    return m if m in SYSCALLS else None


def _errno(code: int) -> int:
    return _RET_ERRNO | code


def program(arch: str, pid: int | None = None) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions (jumps are relative).

    With ``pid`` (the process that installs it), signals may be sent only to
    itself: ``kill(pid or 0, ...)``, ``tgkill(pid, ...)``; else ``EPERM``."""
    nr = SYSCALLS[arch]
    p = [(_LD_W_ABS, 0, 0, _ARCH),
         (_JEQ_K, 1, 0, AUDIT_ARCH[arch]),
         (_RET_K, 0, 0, RET_KILL_PROCESS),
         (_LD_W_ABS, 0, 0, _NR)]
    if arch == "x86_64":  # x32 system calls share the arch value: refuse them all
        p += [(_JGE_K, 0, 1, _X32_SYSCALL_BIT), (_RET_K, 0, 0, RET_KILL_PROCESS)]

    def rule(name, action):
        if name in nr:
            p.extend([(_JEQ_K, 0, 1, nr[name]), (_RET_K, 0, 0, action)])

    for name in KILL:
        rule(name, RET_KILL_PROCESS)
    for name in DENY:
        rule(name, _errno(errno.EPERM))
    for name in NOSYS:
        rule(name, _errno(errno.ENOSYS))
    # clone: threads only
    p += [(_JEQ_K, 0, 4, nr["clone"]),
          (_LD_W_ABS, 0, 0, _arg(0)),
          (_JSET_K, 0, 1, CLONE_THREAD),
          (_RET_K, 0, 0, RET_ALLOW),
          (_RET_K, 0, 0, RET_KILL_PROCESS)]
    # signals: to this process only
    if pid is not None:
        p += [(_JEQ_K, 0, 5, nr["kill"]),
              (_LD_W_ABS, 0, 0, _arg(0)),
              (_JEQ_K, 2, 0, pid),
              (_JEQ_K, 1, 0, 0),
              (_RET_K, 0, 0, _errno(errno.EPERM)),
              (_RET_K, 0, 0, RET_ALLOW)]
        p += [(_JEQ_K, 0, 4, nr["tgkill"]),
              (_LD_W_ABS, 0, 0, _arg(0)),
              (_JEQ_K, 1, 0, pid),
              (_RET_K, 0, 0, _errno(errno.EPERM)),
              (_RET_K, 0, 0, RET_ALLOW)]
    # open/openat: read-only
    for name, flags_arg in (("open", 1), ("openat", 2)):
        if name in nr:
            p += [(_JEQ_K, 0, 4, nr[name]),
                  (_LD_W_ABS, 0, 0, _arg(flags_arg)),
                  (_JSET_K, 0, 1, O_WRITE_FLAGS),
                  (_RET_K, 0, 0, _errno(errno.EPERM)),
                  (_RET_K, 0, 0, RET_ALLOW)]
    p.append((_RET_K, 0, 0, RET_ALLOW))
    return p


def install() -> bool:
    """Install the filter in this process (and its future threads).

    Returns False when the machine is not one the filter knows; raises
    OSError when the kernel refuses it."""
    import ctypes

    arch = machine()
    if arch is None:
        return False
    code = b"".join(struct.pack("<HBBI", *ins) for ins in program(arch, os.getpid()))
    n = len(code) // 8
    buf = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(n, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                           ctypes.c_ulong]
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(e)}")
    # seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, ...) would also cover threads
    # started earlier; the child installs the filter before it starts any, so prctl is enough
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"prctl(PR_SET_SECCOMP): {os.strerror(e)}")
    return True
