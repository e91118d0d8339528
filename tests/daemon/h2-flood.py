#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile HTTP/2 clients for cuzkd's transport tests, stdlib only, frames built by hand.

  h2-flood.py SOCKET hold --streams N --mib M [--length MIB] [--hold S] [--ignore-flow-control]
      One connection; N SubmitProof streams, each announcing a message of --length MiB
      (default 127) and sending M MiB of it, as flow control allows (a stream that gets
      no window for --wait seconds is left as it is), then holding everything unfinished
      for S seconds. --ignore-flow-control sends regardless of the windows (a protocol
      violation). Prints "sent BYTES" when all is sent, then "closed"/"held" at the end.
  h2-flood.py SOCKET idle --connections N [--hold S]
      N connections that send nothing. Prints "connected N".
  h2-flood.py SOCKET half-frame [--hold S]
      Preface and SETTINGS, HEADERS, then 12 of the 22 bytes of a DATA frame.
  h2-flood.py SOCKET half-preface [--hold S]
      Half of the connection preface.
  h2-flood.py SOCKET handshake [--hold S]
      The whole preface and SETTINGS, then nothing (an idle connection).
      The three print "closed after T s" when the server closes the connection within S
      seconds (default 60), else "open after S s".
  h2-flood.py SOCKET submit --count N --zkey PATH --wtns PATH [--connections C] [--window W]
                            [--id-bytes B] [--seconds T] [--call-timeout S]
                            [--jobs-out FILE]
      N GROTH16_SNARKJS SubmitProof calls, each with a request id of its own (of B bytes
      with --id-bytes), over C connections with at most W calls in flight on each, sent as
      fast as the server answers (or, with --seconds, spread evenly over T seconds).
      A connection the server closes is opened again (--reconnects times at most). A call cut off by a closed connection is sent again on
      a new one (request ids make that safe). Prints "answered A of N in T s (slowest
      call S s)" and "status NAME COUNT" per gRPC status; "hung H" counts calls with no
      answer for --call-timeout seconds. Accepted job ids go to FILE, one a line.
"""
import argparse
import collections
import os
import queue
import resource
import select
import socket
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, END_HEADERS, ACK = 1, 4, 1
CHUNK = 16384  # the HTTP/2 default SETTINGS_MAX_FRAME_SIZE


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def literal(name, value):  # HPACK literal without indexing, no Huffman (lengths < 127)
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value


HEADER_BLOCK = b"".join(literal(k, v) for k, v in [
    (b":method", b"POST"), (b":scheme", b"http"), (b":path", b"/cuzk.v1.ProvingEngine/SubmitProof"),
    (b":authority", b"cuzk"), (b"content-type", b"application/grpc"), (b"te", b"trailers")])


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def wait_closed(s, hold):
    """Seconds until the peer closes s (reading and dropping what it sends), or None."""
    start = time.monotonic()
    while time.monotonic() - start < hold:
        ready, _, _ = select.select([s], [], [], 0.2)
        if not ready:
            continue
        try:
            if not s.recv(65536):
                return time.monotonic() - start
        except OSError:
            return time.monotonic() - start
    return None


class FlowControl:
    """Reads the server's frames on a thread and keeps the send windows."""

    def __init__(self, sock):
        self.sock = sock
        self.lock = threading.Condition()
        self.connection_window = 65535
        self.initial_window = 65535
        self.stream_windows = {}
        self.ended = set()  # streams the server answered or reset
        self.closed = False
        threading.Thread(target=self.run, daemon=True).start()

    def read_exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def on_frame(self, kind, flags, stream, payload):
        if kind == SETTINGS and not flags & ACK:
            for i in range(0, len(payload), 6):
                key, value = struct.unpack(">HI", payload[i:i + 6])
                if key == 4:  # SETTINGS_INITIAL_WINDOW_SIZE
                    for sid in self.stream_windows:
                        self.stream_windows[sid] += value - self.initial_window
                    self.initial_window = value
            self.sock.sendall(frame(SETTINGS, ACK, 0))
        elif kind == WINDOW_UPDATE:
            increment = struct.unpack(">I", payload)[0] & 0x7FFFFFFF
            if stream == 0:
                self.connection_window += increment
            elif stream in self.stream_windows:
                self.stream_windows[stream] += increment
        elif kind == PING and not flags & ACK:
            self.sock.sendall(frame(PING, ACK, 0, payload))
        elif kind in (HEADERS, RST_STREAM) and stream:
            self.ended.add(stream)
        elif kind == GOAWAY:
            self.closed = True

    def run(self):
        try:
            while True:
                head = self.read_exactly(9)
                length = struct.unpack(">I", b"\x00" + head[:3])[0]
                payload = self.read_exactly(length)
                with self.lock:
                    self.on_frame(head[3], head[4], struct.unpack(">I", head[5:9])[0] & 0x7FFFFFFF,
                                  payload)
                    self.lock.notify_all()
        except (EOFError, OSError):
            with self.lock:
                self.closed = True
                self.lock.notify_all()

    def take(self, stream, wanted, wait, ignore):
        """Up to wanted bytes of window for stream, waiting at most wait seconds; 0: none."""
        if ignore:
            return wanted
        deadline = time.monotonic() + wait
        with self.lock:
            while not self.closed and stream not in self.ended:
                n = min(wanted, self.connection_window, self.stream_windows[stream])
                if n > 0:
                    self.connection_window -= n
                    self.stream_windows[stream] -= n
                    return n
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.lock.wait(left)
        return 0


def hold(args):
    s = connect(args.socket)
    try:
        s.sendall(PREFACE + frame(SETTINGS, 0, 0))
    except OSError:  # closed at once (a connection limit): nothing sent
        print("sent 0\nclosed", flush=True)
        return
    flow = FlowControl(s)
    sent = 0
    length = args.length << 20
    try:
        for i in range(args.streams):
            sid = 2 * i + 1
            with flow.lock:
                flow.stream_windows[sid] = flow.initial_window
            s.sendall(frame(HEADERS, END_HEADERS, sid, HEADER_BLOCK))
            pending = b"\x00" + struct.pack(">I", length)
            to_send = (args.mib << 20) + len(pending)
            while to_send > 0:
                n = flow.take(sid, min(CHUNK, to_send), args.wait, args.ignore_flow_control)
                if n == 0:
                    break
                payload = pending[:n] + b"z" * (n - len(pending[:n]))
                pending = pending[n:]
                s.sendall(frame(DATA, 0, sid, payload))
                to_send -= n
                sent += n
    except OSError:
        pass
    print(f"sent {sent}", flush=True)
    start = time.monotonic()
    while time.monotonic() - start < args.hold and not flow.closed:
        time.sleep(0.2)
    print("closed" if flow.closed else "held", flush=True)


def idle(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.connections + 64)), hard))
    sockets = []
    for _ in range(args.connections):
        try:
            sockets.append(connect(args.socket))
        except OSError as e:
            print(f"connect: {e}", file=sys.stderr)
            break
    print(f"connected {len(sockets)}", flush=True)
    time.sleep(args.hold)


def half(args, first_bytes):
    s = connect(args.socket)
    s.sendall(first_bytes)
    closed = wait_closed(s, args.hold)
    print(f"closed after {closed:.1f} s" if closed is not None else f"open after {args.hold} s",
          flush=True)


GRPC_STATUS = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
               "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
               "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
               "UNAUTHENTICATED"]
GROTH16_SNARKJS = 100
# RFC 7541 appendix B, only the symbols of "grpc-status" and of digits: enough to find the
# status in a header block without a whole Huffman table (names outside it are other names).
HUFFMAN = {"0": "00000", "1": "00001", "2": "00010", "a": "00011", "c": "00100", "e": "00101",
           "s": "01000", "t": "01001", "-": "010110", "3": "011001", "4": "011010",
           "5": "011011", "6": "011100", "7": "011101", "8": "011110", "9": "011111",
           "g": "100110", "p": "101011", "r": "101100", "u": "101101"}
HUFFMAN_DECODE = {code: char for char, code in HUFFMAN.items()}


def varint(n):
    out = b""
    while n >= 0x80:
        out += bytes([n & 0x7F | 0x80])
        n >>= 7
    return out + bytes([n])


def proto_field(number, value):
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value


def submit_request(request_id, zkey, wtns):
    """A cuzk.v1.SubmitProofRequest (api/cuzk.proto) in a gRPC message prefix."""
    body = (proto_field(1, request_id) + proto_field(2, GROTH16_SNARKJS) + proto_field(100, zkey) +
            proto_field(101, wtns))
    return b"\x00" + struct.pack(">I", len(body)) + body


def proto_string_field(message, wanted):
    """The first length-delimited field number wanted of a protobuf message, or b""."""
    pos = 0
    while pos < len(message):
        key, shift = 0, 0
        while True:
            byte = message[pos]
            pos += 1
            key |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if key & 7 != 2:
            return b""  # SubmitProofResponse: strings first; stop at anything else
        length, shift = 0, 0
        while True:
            byte = message[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if key >> 3 == wanted:
            return message[pos:pos + length]
        pos += length
    return b""


def hpack_int(block, pos, prefix_bits):
    mask = (1 << prefix_bits) - 1
    value = block[pos] & mask
    pos += 1
    if value < mask:
        return value, pos
    shift = 0
    while True:
        byte = block[pos]
        pos += 1
        value += (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def hpack_string(block, pos):
    """(text or None where a Huffman code is outside HUFFMAN, next position)."""
    huffman = block[pos] & 0x80
    length, pos = hpack_int(block, pos, 7)
    raw = block[pos:pos + length]
    if not huffman:
        return raw.decode("latin-1"), pos + length
    bits, code, text = "".join(f"{b:08b}" for b in raw), "", ""
    for bit in bits:
        code += bit
        if code in HUFFMAN_DECODE:
            text, code = text + HUFFMAN_DECODE[code], ""
        elif len(code) > 6:
            return None, pos + length
    return (text if set(code) <= {"1"} else None), pos + length


def grpc_status_of(block):
    """The grpc-status in a header block encoded without a dynamic table, or None."""
    pos = 0
    while pos < len(block):
        byte = block[pos]
        if byte & 0x80:  # indexed: a static-table field, none of them grpc-status
            _, pos = hpack_int(block, pos, 7)
            continue
        if byte & 0xE0 == 0x20:  # dynamic table size update
            _, pos = hpack_int(block, pos, 5)
            continue
        index, pos = hpack_int(block, pos, 6 if byte & 0x40 else 4)
        name = None
        if index == 0:
            name, pos = hpack_string(block, pos)
        value, pos = hpack_string(block, pos)
        if name == "grpc-status" and value is not None and value.isdigit():
            return int(value)
    return None


class SubmitConnection:
    """One connection of the submit flood: keeps up to window calls in flight."""

    def __init__(self, args, work, results):
        self.args, self.work, self.results = args, work, results
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(args.call_timeout)  # connect too: a hung server's backlog fills
        self.sock.connect(args.socket)
        self.in_flight = {}  # stream id -> (index, sent at, response bytes)
        self.next_stream = 1
        self.max_streams = None
        self.received = 0
        self.buffer = b""
        # SETTINGS_HEADER_TABLE_SIZE 0: the server's header blocks use no dynamic table.
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0, struct.pack(">HI", 1, 0)))

    def read_frame(self):
        while True:
            if len(self.buffer) >= 9:
                length = struct.unpack(">I", b"\x00" + self.buffer[:3])[0]
                if len(self.buffer) >= 9 + length:
                    head, self.buffer = self.buffer[:9 + length], self.buffer[9 + length:]
                    return head[3], head[4], struct.unpack(">I", head[5:9])[0] & 0x7FFFFFFF, head[9:]
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk

    def fill(self):
        """Sends what is due; False when all is sent and answered."""
        window = min(self.args.window, self.max_streams or 1)
        while len(self.in_flight) < window:
            try:  # with nothing in flight, wait for the next call that is due
                index = self.work.get(timeout=0.05) if not self.in_flight else self.work.get_nowait()
            except queue.Empty:
                return bool(self.in_flight) or not self.args.all_answered.is_set()
            sid, self.next_stream = self.next_stream, self.next_stream + 2
            self.in_flight[sid] = (index, time.monotonic(), b"")
            self.sock.sendall(frame(HEADERS, END_HEADERS, sid, HEADER_BLOCK) +
                              frame(DATA, END_STREAM, sid, self.args.bodies[index]))
        return True

    def answer(self, sid, status, message=b""):
        index, sent, _ = self.in_flight.pop(sid)
        job_id = proto_string_field(message[5:], 1).decode() if status == "OK" else ""
        record(self.args, self.results, (index, status, time.monotonic() - sent, job_id))

    def on_frame(self, kind, flags, sid, payload):
        if kind == SETTINGS and not flags & ACK:
            for i in range(0, len(payload), 6):
                key, value = struct.unpack(">HI", payload[i:i + 6])
                if key == 3:  # SETTINGS_MAX_CONCURRENT_STREAMS
                    self.max_streams = value
            self.max_streams = self.max_streams or 100
            self.sock.sendall(frame(SETTINGS, ACK, 0))
        elif kind == PING and not flags & ACK:
            self.sock.sendall(frame(PING, ACK, 0, payload))
        elif kind == DATA and sid in self.in_flight:
            index, sent, data = self.in_flight[sid]
            self.in_flight[sid] = (index, sent, data + payload)
            self.received += len(payload)
            if self.received > 16384:  # give the connection window back in batches
                self.sock.sendall(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", self.received)))
                self.received = 0
        elif kind == HEADERS and sid in self.in_flight and flags & END_STREAM:
            status = grpc_status_of(payload)
            name = GRPC_STATUS[status] if status is not None and status < len(GRPC_STATUS) else \
                f"grpc-status {status}"
            self.answer(sid, name, self.in_flight[sid][2])
        elif kind == RST_STREAM and sid in self.in_flight:
            self.answer(sid, f"RST_STREAM {struct.unpack('>I', payload)[0]}")
        elif kind == GOAWAY:
            raise EOFError

    def run(self):
        """Until the work is done; False where the server closed the connection."""
        try:
            while True:
                if self.max_streams is not None and not self.fill():
                    return True
                if self.in_flight or self.max_streams is None:
                    self.on_frame(*self.read_frame())
        except socket.timeout:
            for sid in list(self.in_flight):
                self.answer(sid, "hung")
            return True
        except (EOFError, OSError):
            for index, _, _ in self.in_flight.values():
                self.work.put(index)  # sent again on a new connection
            return False
        finally:
            self.sock.close()


def submit_worker(args, work, results):
    for _ in range(args.reconnects + 1):
        try:
            if SubmitConnection(args, work, results).run():
                return
        except OSError:
            time.sleep(0.1)
        with args.lock:
            args.n_reconnects += 1
    while not args.all_answered.is_set():  # reconnects spent: what is left is not answered
        try:
            record(args, results, (work.get(timeout=0.05), "connection lost", 0.0, ""))
        except queue.Empty:
            pass


def record(args, results, result):
    """Keeps one call's result; the last one ends the flood."""
    results.put(result)
    with args.lock:
        args.n_results += 1
        if args.n_results == args.count:
            args.all_answered.set()


def queue_calls(args, work):
    """Queues the calls evenly over --seconds (all at once without)."""
    start = time.monotonic()
    for i in range(args.count):
        delay = start + i * args.seconds / args.count - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        work.put(i)


def submit(args):
    tag = f"flood-{os.getpid()}-{int(time.time())}"
    zkey, wtns = args.zkey.encode(), args.wtns.encode()
    args.bodies = []
    for i in range(args.count):
        request_id = f"{tag}-{i}-".encode()
        request_id += b"x" * max(0, args.id_bytes - len(request_id))
        args.bodies.append(submit_request(request_id, zkey, wtns))
    work, results = queue.Queue(), queue.Queue()
    args.all_answered, args.lock, args.n_results = threading.Event(), threading.Lock(), 0
    args.n_reconnects = 0
    start = time.monotonic()
    threads = [threading.Thread(target=submit_worker, args=(args, work, results), daemon=True)
               for _ in range(args.connections)]
    threads.append(threading.Thread(target=queue_calls, args=(args, work), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts, slowest, answered, jobs = collections.Counter(), 0.0, set(), []
    while not results.empty():
        index, status, seconds, job_id = results.get()
        counts[status] += 1
        slowest = max(slowest, seconds)
        if status not in ("hung", "connection lost"):
            answered.add(index)
        if job_id:
            jobs.append(job_id)
    print(f"answered {len(answered)} of {args.count} in {time.monotonic() - start:.1f} s "
          f"(slowest call {slowest:.2f} s, {args.n_reconnects} connections closed by the server)",
          flush=True)
    for status, count in sorted(counts.items()):
        print(f"status {status.replace(' ', '_')} {count}", flush=True)
    if args.jobs_out:
        with open(args.jobs_out, "w") as f:
            f.writelines(f"{job}\n" for job in jobs)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("socket")
    parser.add_argument("mode", choices=["hold", "idle", "half-frame", "half-preface", "handshake",
                                           "submit"])
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--mib", type=int, default=100)
    parser.add_argument("--length", type=int, default=127, help="announced message length, MiB")
    parser.add_argument("--wait", type=float, default=1.0, help="seconds to wait for a window")
    parser.add_argument("--ignore-flow-control", action="store_true")
    parser.add_argument("--connections", type=int, help="default: 1000 for idle, 4 for submit")
    parser.add_argument("--hold", type=float, default=60)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--zkey", default="")
    parser.add_argument("--wtns", default="")
    parser.add_argument("--window", type=int, default=16, help="calls in flight a connection")
    parser.add_argument("--id-bytes", type=int, default=0, help="request ids padded to this length")
    parser.add_argument("--call-timeout", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=0, help="spread the calls over this time")
    parser.add_argument("--reconnects", type=int, default=10000)
    parser.add_argument("--jobs-out", default="")
    args = parser.parse_args()
    if args.mode == "hold":
        hold(args)
    elif args.mode == "idle":
        args.connections = args.connections or 1000
        idle(args)
    elif args.mode == "submit":
        args.connections = args.connections or 4
        submit(args)
    elif args.mode == "half-frame":
        data = frame(DATA, 0, 1, b"\x00\x00\x00\x00\x08" + b"12345678")
        half(args, PREFACE + frame(SETTINGS, 0, 0) + frame(HEADERS, END_HEADERS, 1, HEADER_BLOCK) + data[:12])
    elif args.mode == "handshake":
        half(args, PREFACE + frame(SETTINGS, 0, 0))
    else:
        half(args, PREFACE[:12])


if __name__ == "__main__":
    main()
