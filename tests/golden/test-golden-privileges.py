#!/usr/bin/env python3
"""Live capture and the HEP listener, run as root, give root up once the interface or the
sockets are open (TAP): the process's uid and gid, read from /proc while it runs, are those
the system lists for the user (pwd, not callscope) — nobody by default, the --user given, or
root only when asked for; the saved capture belongs to that user; an unknown user stops the
command before anything is read."""
import os
import pwd
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("CS_CLI")


def ids_while_running(args, tmp):
    """Starts the command, reads its real/effective ids once it said it is capturing."""
    err = open(os.path.join(tmp, "err.txt"), "w+")
    proc = subprocess.Popen([CLI] + args, stdout=subprocess.DEVNULL, stderr=err)
    ids = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and proc.poll() is None:
        err.seek(0)
        said = err.read()
        if "Capturing on" in said or "Listening for HEP" in said:
            with open(f"/proc/{proc.pid}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
            ids = ([int(x) for x in fields["Uid"].split()], [int(x) for x in fields["Gid"].split()])
            break
        time.sleep(0.05)
    proc.wait(timeout=30)
    err.seek(0)
    return ids, proc.returncode, err.read()


def main():
    if CLI is None:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    if os.geteuid() != 0:
        print("1..0 # SKIP not running as root: there is no privilege to give up")
        return 0
    nobody = pwd.getpwnam("nobody")
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o1777)  # the capture is written after root is given up
        cases = [
            ("capture, default user", ["capture", "-i", "lo", "--duration", "1", "-w",
                                       os.path.join(tmp, "a.pcapng")], nobody, "a.pcapng"),
            ("capture --user nobody", ["capture", "-i", "lo", "--duration", "1", "--user",
                                       "nobody", "-w", os.path.join(tmp, "b.pcapng")], nobody,
             "b.pcapng"),
            ("capture --user root stays root", ["capture", "-i", "lo", "--duration", "1",
                                                "--user", "root"], pwd.getpwnam("root"), None),
            ("hep --listen, default user", ["hep", "--listen", "127.0.0.1:0", "--duration", "1"],
             nobody, None),
        ]
        for name, args, user, saved in cases:
            ids, code, err = ids_while_running(args, tmp)
            ok = (code == 0 and ids is not None and ids[0] == [user.pw_uid] * 4
                  and ids[1] == [user.pw_gid] * 4)
            if ok and saved is not None:
                ok = os.stat(os.path.join(tmp, saved)).st_uid == user.pw_uid
            checks.append((name, ok, [f"ids {ids}, exit {code}", err.strip()]))
        _, code, err = ids_while_running(["capture", "-i", "lo", "--duration", "1", "--user",
                                          "no-such-user-here"], tmp)
        checks.append(("an unknown user stops the capture", code == 1
                       and "no-such-user-here" in err, [err.strip()]))
    print(f"1..{len(checks)}")
    for i, (name, ok, notes) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}")
        for n in notes:
            for line in n.splitlines():
                print(f"# {line}")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
