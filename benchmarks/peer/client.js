'use strict';
/**
 * The peer's players for `make bench-peer` (benchmarks/live.py, "Peer"): one
 * boardgame.io `Client` per seat (boardgame.io/client, with its `SocketIO`
 * multiplayer transport: socket.io-client over a WebSocket, one connection per
 * client), all in this one Node process, playing the server of server.js with
 * the load shape of Parlour's run (benchmarks/live_client.py):
 *
 * - matches made through the Lobby API (`createMatch`, then `joinMatch` per
 *   seat for its credentials), before the baseline memory;
 * - (a) paced: a global scheduler releases one ready match per slot, `rate`
 *   slots per second; (b) saturation: every match moves as soon as it may;
 * - the seat to move sends `roll`, or `move(piece)` with a piece chosen at
 *   random (seeded) among `G.legal`; a move's round trip runs from sending it
 *   until every seat's client of its match has received, from the server, a
 *   state whose `_stateID` is past the one it was sent against;
 * - a round trip lost for `timeout` s is an error, and the match resyncs; a
 *   finished match is replaced by a new one.
 *
 * Round trips and byte counts read the socket's own events (`update`, `sync`,
 * and the engine's raw messages), not the client's store, which also applies
 * a seat's move locally before the server answers.
 *
 * boardgame.io's own Client copes with 800 of them in one process: measured
 * here, this driver used less CPU per move than the server (about 0.5 against
 * 0.6 to 0.8 ms in saturation), so the socket.io protocol is not driven by
 * hand.
 *
 * Run by benchmarks/live_peer.py: `node client.js '<JSON options>'` with
 * NODE_PATH=var/peer/node_modules; options: port, matches, rate,
 * paced_seconds, saturate_seconds, warmup (seconds), timeout (seconds), seed.
 * It talks JSON lines on stdout: `{"say": text}` progress; `{"mark": name,
 * ...}` at each point where the driver reads the server's CPU and memory from
 * /proc, after which it waits for one line on stdin (a window's end mark
 * carries the window: round trips, errors, driver CPU); `{"result": {...}}`
 * last (frame sizes).
 * Times in its output are seconds.
 */

const readline = require('readline');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Ludo, SEATS } = require('./game');

const opts = JSON.parse(process.argv[2]);
const SERVER = `http://127.0.0.1:${opts.port}`;
const MAX_CONNECTING = 50; // sockets opening at once, as live_client.py's Bench
const lobby = new LobbyClient({ server: SERVER });

const now = () => performance.now() / 1000;
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, Math.max(0, seconds * 1000)));

// -- the line protocol with benchmarks/live_peer.py ----------------------------

const acks = [];
readline.createInterface({ input: process.stdin }).on('line', () => {
  const resolve = acks.shift();
  if (resolve) resolve();
});
const emit = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const say = (text) => emit({ say: text });
/** Tell the driver we are at `name`, wait until it has read /proc. */
const mark = (name, extra = {}) =>
  new Promise((resolve) => {
    acks.push(resolve);
    emit({ mark: name, ...extra });
  });

/** mulberry32: the seeded choice of piece, as live_client.py seeds its choices. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Stats {
  constructor() {
    this.started = now();
    this.ended = null;
    this.cpu0 = process.cpuUsage();
    this.cpuSeconds = null;
    this.sent = 0;
    this.rtts = [];
    this.errors = {};
    this.missedSlots = 0;
    this.replaced = 0;
  }

  error(kind) {
    this.errors[kind] = (this.errors[kind] || 0) + 1;
  }

  end() {
    this.ended = now();
    const cpu = process.cpuUsage(this.cpu0);
    this.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  }

  toJSON() {
    return {
      seconds: (this.ended ?? now()) - this.started,
      driver_cpu_seconds: this.cpuSeconds,
      sent: this.sent,
      rtts: this.rtts,
      errors: this.errors,
      missed_slots: this.missedSlots,
      replaced: this.replaced,
    };
  }
}

class Semaphore {
  constructor(slots) {
    this.slots = slots;
    this.waiting = [];
  }

  async acquire() {
    if (this.slots > 0) {
      this.slots -= 1;
      return;
    }
    await new Promise((resolve) => this.waiting.push(resolve));
  }

  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.slots += 1;
  }
}

// -- one match ---------------------------------------------------------------------

/** A match made through the Lobby API: {matchID, credentials: one per seat};
 * tried three times (a loaded machine can drop a request). */
async function createMatch() {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await createMatchOnce();
    } catch (e) {
      if (attempt === 3) throw e;
      await sleep(1);
    }
  }
}

async function createMatchOnce() {
  const { matchID } = await lobby.createMatch(Ludo.name, { numPlayers: SEATS });
  const credentials = [];
  for (let seat = 0; seat < SEATS; seat += 1) {
    const joined = await lobby.joinMatch(Ludo.name, matchID, { playerID: String(seat), playerName: `p${seat}` });
    credentials.push(joined.playerCredentials);
  }
  return { matchID, credentials };
}

class Table {
  constructor(bench, match) {
    this.bench = bench;
    this.matchID = match.matchID;
    this.seen = Array(SEATS).fill(-1); // highest _stateID each seat's socket received
    this.latest = null; // the state with the highest _stateID received
    this.pending = null; // {version, sentAt, stats}
    this.queued = false;
    this.finished = false;
    this.closing = false;
    this.lastProgress = now();
    this.clients = match.credentials.map((credentials, seat) =>
      Client({
        game: Ludo,
        matchID: this.matchID,
        playerID: String(seat),
        credentials,
        numPlayers: SEATS,
        debug: false,
        multiplayer: SocketIO({
          server: SERVER,
          // One connection per client (socket.io-client would share one per
          // server otherwise), WebSocket from the start as Parlour's pages.
          socketOpts: { forceNew: true, transports: ['websocket'], reconnectionAttempts: 5 },
        }),
      }),
    );
  }

  get opened() {
    return Math.min(...this.seen) >= 0;
  }

  /** Start every seat's client and resolve when each has its first state. */
  async open() {
    await Promise.all(this.clients.map((client, seat) => this.openSeat(client, seat)));
  }

  async openSeat(client, seat) {
    const bench = this.bench;
    await bench.connecting.acquire();
    try {
      await new Promise((resolve) => {
        client.start();
        const socket = client.transport.socket;
        socket.on('sync', (matchID, info) => {
          this.onState(seat, info.state);
          resolve();
        });
        socket.on('update', (matchID, state) => this.onState(seat, state));
        socket.on('connect_error', (e) => bench.stats.error(`connect failed (${e.message})`));
        socket.on('disconnect', (reason) => {
          if (!this.closing && !bench.stopping) bench.stats.error(`closed unexpectedly (${reason})`);
        });
        socket.io.on('open', () =>
          socket.io.engine.on('message', (data) => bench.noteFrame(data)),
        );
      });
    } finally {
      bench.connecting.release();
    }
  }

  onState(seat, state) {
    const bench = this.bench;
    this.lastProgress = now();
    if (state._stateID > this.seen[seat]) this.seen[seat] = state._stateID;
    if (this.latest === null || state._stateID > this.latest._stateID) this.latest = state;
    if (state.ctx.gameover && !this.finished) {
      this.finished = true;
      bench.replace(this);
      return;
    }
    const pending = this.pending;
    if (pending !== null && Math.min(...this.seen) > pending.version) {
      this.pending = null;
      if (pending.stats === bench.stats) pending.stats.rtts.push(now() - pending.sentAt);
    }
    this.maybeReady();
  }

  /** Every seat has the latest state and nothing is in flight. */
  get ready() {
    return (
      this.pending === null && !this.finished && !this.closing && this.opened &&
      Math.min(...this.seen) === this.latest._stateID
    );
  }

  maybeReady() {
    if (this.queued || !this.ready) return;
    if (this.bench.mode === 'saturate') this.sendMove();
    else if (this.bench.mode === 'paced') {
      this.queued = true;
      this.bench.queue.push(this);
    }
  }

  sendMove() {
    this.queued = false;
    if (!this.ready) return;
    const state = this.latest;
    const client = this.clients[+state.ctx.currentPlayer];
    const stats = this.bench.stats;
    this.pending = { version: state._stateID, sentAt: now(), stats };
    stats.sent += 1;
    if (state.G.die === null) client.moves.roll();
    else client.moves.move(state.G.legal[Math.floor(this.bench.random() * state.G.legal.length)]);
  }

  /** Ask every seat's socket for the current state (after a lost round trip). */
  resync() {
    this.pending = null;
    for (const client of this.clients) {
      if (client.transport.socket) client.transport.requestSync();
    }
  }

  close() {
    this.closing = true;
    // A client whose socket never opened has nothing to stop (boardgame.io's stop() would throw).
    for (const client of this.clients) if (client.transport.socket) client.stop();
  }
}

// -- all matches -------------------------------------------------------------------

class Bench {
  constructor() {
    this.tables = [];
    this.queue = []; // paced: matches ready to move, oldest first
    this.mode = 'idle';
    this.stopping = false;
    this.stats = new Stats();
    this.random = rng(opts.seed);
    this.connecting = new Semaphore(MAX_CONNECTING);
    this.frames = { update: [0, 0], other: [0, 0] }; // kind -> [count, bytes], the whole run
    this.watchdog = setInterval(() => this.watch(), 1000);
  }

  /** A raw socket.io message (a WebSocket frame's text less engine.io's type character). */
  noteFrame(data) {
    const entry = data.startsWith(`2/${Ludo.name},["update"`) ? this.frames.update : this.frames.other;
    entry[0] += 1;
    entry[1] += Buffer.byteLength(data) + 1;
  }

  async openTables(matches) {
    const tables = matches.map((match) => new Table(this, match));
    this.tables.push(...tables);
    await Promise.all(tables.map((table) => table.open()));
    return tables;
  }

  openSockets() {
    return this.tables.reduce(
      (n, table) => n + table.clients.filter((c) => c.transport.socket && c.transport.socket.connected).length,
      0,
    );
  }

  replace(table) {
    this.tables = this.tables.filter((t) => t !== table);
    table.close();
    if (this.stopping) return;
    const stats = this.stats;
    createMatch()
      .then((match) => {
        if (this.stopping) return;
        stats.replaced += 1;
        return this.openTables([match]).then(([fresh]) => fresh.maybeReady());
      })
      .catch((e) => stats.error(`replacing a finished match failed (${e.message})`));
  }

  setMode(mode) {
    this.mode = mode;
    this.queue = [];
    for (const table of this.tables) table.queued = false;
    for (const table of [...this.tables]) table.maybeReady();
  }

  beginWindow() {
    this.stats = new Stats();
    return this.stats;
  }

  endWindow() {
    const stats = this.stats;
    stats.end();
    this.stats = new Stats();
    return stats;
  }

  /** Release one ready match per slot, `rate` slots per second, for `seconds`. */
  async pace(rate, seconds) {
    const start = now();
    let slots = 0;
    let elapsed;
    while ((elapsed = now() - start) < seconds) {
      const due = Math.floor(elapsed * rate) - slots;
      for (let i = 0; i < due; i += 1) {
        slots += 1;
        const table = this.queue.shift();
        if (table) table.sendMove();
        else this.stats.missedSlots += 1;
      }
      await sleep(start + (slots + 1) / rate - now());
    }
  }

  /** Stop moving and wait (up to `timeout` s) for round trips in flight. */
  async drain(timeout = 10) {
    this.setMode('idle');
    const deadline = now() + timeout;
    while (this.tables.some((t) => t.pending) && now() < deadline) await sleep(0.05);
  }

  watch() {
    const t = now();
    for (const table of this.tables) {
      if (table.closing || table.finished) continue;
      if (table.pending && t - table.pending.sentAt > opts.timeout) {
        this.stats.error('round trip timed out');
        table.resync();
      } else if (!table.pending && !table.queued && this.mode !== 'idle' && table.opened &&
                 t - table.lastProgress > opts.timeout) {
        this.stats.error('no seat to move (resynced)');
        table.lastProgress = t;
        table.resync();
      }
    }
  }

  close() {
    this.stopping = true;
    clearInterval(this.watchdog);
    for (const table of this.tables) table.close();
    this.tables = [];
  }

  meanFrameBytes(kind) {
    const [count, bytes] = this.frames[kind];
    return count ? bytes / count : null;
  }
}

async function createMatches(count) {
  const matches = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, createMatch);
    matches.push(...(await Promise.all(batch)));
  }
  return matches;
}

async function main() {
  const bench = new Bench();
  // One match played for 2 s touches every code path before the baseline memory.
  const [warm] = await bench.openTables(await createMatches(1));
  bench.setMode('saturate');
  await sleep(2);
  await bench.drain();
  warm.close();
  bench.tables = [];
  bench.stats = new Stats();

  let t = now();
  const matches = await createMatches(opts.matches);
  say(`${matches.length} matches made through the Lobby API in ${(now() - t).toFixed(1)} s`);
  await sleep(1);
  await mark('base');
  t = now();
  await bench.openTables(matches);
  const connectSeconds = now() - t;
  await sleep(2);
  const setupErrors = { ...bench.stats.errors };
  await mark('idle', { sockets: bench.openSockets(), connect_seconds: connectSeconds });

  for (const [name, mode, seconds] of [
    ['paced', 'paced', opts.paced_seconds],
    ['saturated', 'saturate', opts.saturate_seconds],
  ]) {
    bench.setMode(mode);
    if (mode === 'paced') await bench.pace(opts.rate, opts.warmup);
    else await sleep(opts.warmup);
    await mark(`${name}-start`);
    const stats = bench.beginWindow();
    if (mode === 'paced') await bench.pace(opts.rate, seconds);
    else await sleep(seconds);
    bench.endWindow();
    await mark(`${name}-end`, { window: stats.toJSON() });
    await bench.drain();
  }
  emit({
    result: {
      setup_errors: setupErrors,
      update_frame_bytes: bench.meanFrameBytes('update'),
      update_frames: bench.frames.update[0],
      other_frame_bytes: bench.meanFrameBytes('other'),
      other_frames: bench.frames.other[0],
    },
  });
  bench.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e && e.stack ? e.stack : e, e && e.cause ? e.cause : "");
    process.exit(1);
  },
);
