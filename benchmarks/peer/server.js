'use strict';
/**
 * The peer's server for `make bench-peer` (benchmarks/live.py, "Peer"):
 * boardgame.io's `Server` serving the four-seat dice game of game.js, with its
 * defaults: in-memory storage (nothing persisted), the socket.io transport,
 * the Lobby API (create, join) on the same port. Given a PostgreSQL URL, its
 * matches are stored there instead (bgio-postgres's PostgresStore: every
 * move's state and log written before the update is sent, as Parlour writes
 * its moves).
 *
 * Run: `NODE_PATH=var/peer/node_modules NODE_ENV=production node
 * benchmarks/peer/server.js PORT [POSTGRES_URL]` (benchmarks/live_peer.py
 * starts it, pinned to one core). Listens on 127.0.0.1:PORT only; prints
 * "listening PORT" when up (and the store ready).
 */

const { Server, Origins } = require('boardgame.io/server');
const { Ludo } = require('./game');

const port = Number(process.argv[2]);
const databaseUrl = process.argv[3];
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node server.js PORT [POSTGRES_URL]');
  process.exit(2);
}

let db;
if (databaseUrl) {
  const { PostgresStore } = require('bgio-postgres');
  db = new PostgresStore(databaseUrl, { logging: false });
}

const server = Server({ games: [Ludo], origins: [Origins.LOCALHOST], db });

// Server.run listens on every interface (koa's app.listen(port)); the
// benchmark keeps to loopback, so the port is given with its host.
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => listen(p, '127.0.0.1', callback);

server.run(port, () => console.log(`listening ${port}`));

process.on('SIGTERM', () => process.exit(0));
