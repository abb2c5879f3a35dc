"""A throwaway PostgreSQL server with heplify-server's Homer 7 schema, for the fleet tests.

The server runs from initdb in a temporary folder on a Unix socket only (no TCP), as a
non-root user when the tests run as root (initdb refuses root), and is stopped by stop().
The tables, partitions and indexes are created as heplify-server's rotator does
(rotator/pgfiles.go: tbldatapg, parsippg/parqospg, idxsippg/idxqospg); rows are written as its
database/postgres.go writes them: COPY of (sid, create_date, protocol_header, data_header, raw)
with the protocol_header and data_header JSON of makeProtoHeader and makeSIPDataHeader.
Standard library only.
"""
import datetime
import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile

SIP_TABLES = ["hep_proto_1_call", "hep_proto_1_registration", "hep_proto_1_default"]
RTCP_TABLE = "hep_proto_5_default"
ALL_TABLES = SIP_TABLES + [RTCP_TABLE, "hep_proto_100_default"]
# heplify-server's postgres.go: which CSeq methods go to hep_proto_1_call
CALL_METHODS = {"INVITE", "UPDATE", "BYE", "ACK", "PRACK", "REFER", "CANCEL", "INFO"}


def find_bindir():
    """The PostgreSQL server binaries, or None."""
    for initdb in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True):
        return os.path.dirname(initdb)
    path = shutil.which("initdb")
    return os.path.dirname(path) if path else None


class HomerServer:
    def __init__(self, bindir):
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="cs-homer-pg-")
        self.data = os.path.join(self.dir, "data")
        self.user = None
        self.started = False
        if os.geteuid() == 0:
            self.user = "nobody"
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.role = self.user or pwd.getpwuid(os.geteuid()).pw_name

    def _run(self, argv, **kw):
        if self.user:
            argv = ["runuser", "-u", self.user, "--"] + argv
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=120, **kw)

    def start(self):
        # meson's timeout sends SIGTERM: leave through the callers' finally (stop())
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit(1)))
        r = self._run([os.path.join(self.bindir, "initdb"), "-D", self.data, "-A", "trust",
                       "-U", self.role, "-E", "UTF8", "--no-sync"])
        if r.returncode != 0:
            raise RuntimeError("initdb failed: " + r.stdout)
        r = self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-w", "-l",
                       os.path.join(self.dir, "log"), "-o",
                       "-k %s -c listen_addresses='' -c fsync=off" % self.dir, "start"])
        if r.returncode != 0:
            raise RuntimeError("pg_ctl start failed: " + r.stdout)
        self.started = True

    def stop(self):
        if self.started:
            self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m", "fast",
                       "stop"])
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def uri(self, db="homer_data"):
        return "postgresql:///%s?host=%s&user=%s" % (db, self.dir, self.role)

    def psql(self, sql, db="homer_data", stdin=None, tuples=False):
        argv = [os.path.join(self.bindir, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1"]
        if tuples:
            argv += ["-t", "-A"]
        argv += [
                "-h", self.dir, "-U", self.role, "-d", db, "-c", sql]
        r = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError("psql %r failed: %s" % (sql[:80], r.stdout))
        return r.stdout

    def create_database(self, name):
        self.psql("CREATE DATABASE %s" % name, db="postgres")

    def create_homer_schema(self, db, days, step_minutes=60, tables=None):
        """tbldatapg, then parsippg/parqospg/parlogpg partitions of step_minutes for each
        day (datetime.date) and the idxsippg indexes, as the rotator's fileLoop writes them
        (partition times formatted in UTC, SET timezone = "UTC")."""
        tables = tables or ALL_TABLES
        sql = ['SET timezone = "UTC";']
        for t in tables:
            sql.append("CREATE TABLE IF NOT EXISTS %s (id BIGSERIAL NOT NULL, sid varchar NOT "
                       "NULL, create_date timestamp with time zone DEFAULT CURRENT_TIMESTAMP "
                       "NOT NULL, protocol_header jsonb NOT NULL, data_header jsonb NOT NULL, "
                       "raw varchar NOT NULL) PARTITION BY RANGE (create_date);" % t)
        for day in days:
            start = datetime.datetime(day.year, day.month, day.day)
            for i in range(1440 // step_minutes):
                lo = start + datetime.timedelta(minutes=i * step_minutes)
                hi = lo + datetime.timedelta(minutes=step_minutes)
                suffix = "%s_%s" % (lo.strftime("%Y%m%d"), lo.strftime("%H%M"))
                for t in tables:
                    part = "%s_%s" % (t, suffix)
                    sql.append("CREATE TABLE IF NOT EXISTS %s PARTITION OF %s FOR VALUES FROM "
                               "('%s') TO ('%s');" % (part, t, lo.strftime("%Y-%m-%d %H:%M:%S"),
                                                      hi.strftime("%Y-%m-%d %H:%M:%S")))
                    sql.append("CREATE INDEX IF NOT EXISTS %s_create_date ON %s (create_date);"
                               % (part, part))
                    sql.append("CREATE INDEX IF NOT EXISTS %s_sid ON %s (sid);" % (part, part))
                    if t in SIP_TABLES:
                        for f in ("callid", "from_user", "to_user", "ruri_user"):
                            sql.append("CREATE INDEX IF NOT EXISTS %s_%s ON %s ((data_header->>"
                                       "'%s'));" % (part, f, part, f))
        self.psql("\n".join(sql), db=db)

    def copy_rows(self, db, table, rows):
        """rows: (sid, create_date, protocol_header, data_header, raw) strings, like
        postgres.go's bulkInsert through COPY … FROM STDIN."""
        def esc(v):
            return (v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                    .replace("\r", "\\r"))
        text = "".join("\t".join(esc(v) for v in row) + "\n" for row in rows)
        self.psql("COPY %s(sid,create_date,protocol_header,data_header,raw) FROM STDIN" % table,
                  db=db, stdin=text)


def rfc3339(ts_us):
    """pkt.Timestamp.Format(time.RFC3339Nano) of a time in microseconds (UTC)."""
    t = datetime.datetime.fromtimestamp(ts_us // 1000000, datetime.timezone.utc)
    frac = ("%06d" % (ts_us % 1000000)).rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"


def proto_header(m, node):
    """makeProtoHeader's JSON (field order kept; correlation_id omitted when empty)."""
    return ('{"protocolFamily":%d,"protocol":%d,"srcIp":"%s","dstIp":"%s","srcPort":%d,'
            '"dstPort":%d,"timeSeconds":%d,"timeUseconds":%d,"payloadType":%d,"captureId":"%s"}'
            % (10 if ":" in m["src"] else 2, m["proto"], m["src"], m["dst"], m["sport"],
               m["dport"], m["ts_us"] // 1000000, m["ts_us"] % 1000000, m.get("ptype", 1), node))


def sip_data_header(m):
    """makeSIPDataHeader's JSON."""
    fields = [("ruri_domain", m["ruri_domain"]), ("ruri_user", m["ruri_user"]),
              ("from_user", m["from_user"]), ("to_user", m["to_user"]), ("pid_user", ""),
              ("auth_user", ""), ("callid", m["callid"]), ("method", m["method"])]
    return "{" + ",".join('"%s":%s' % (k, json.dumps(v)) for k, v in fields) + "}"


def sip_table(cseq_method):
    if cseq_method in CALL_METHODS:
        return "hep_proto_1_call"
    if cseq_method == "REGISTER":
        return "hep_proto_1_registration"
    return "hep_proto_1_default"
