'use strict';
/**
 * The peer's game for `make bench-peer` (benchmarks/live.py, "Peer"): a
 * four-seat dice game in boardgame.io with the turn shape of Parlour's Ludo
 * (docs/rules.md "Ludo"), so that a turn is one or two moves as there.
 *
 * State (G): `pieces[seat][piece]`, the progress of each of 4 × 4 pieces as in
 * Parlour's Ludo engine: -1 in base, 0..50 on the ring of 52 cells (cell
 * (13·seat + progress) mod 52), 51..55 the seat's home lane, 56 home; `die`
 * (1..6, or null before the roll); `legal`, the pieces the die lets move (what
 * Parlour's controls offer the seat); `sixes`, sixes rolled in a row. Whose
 * turn it is lives in boardgame.io's `ctx.currentPlayer` (seats "0".."3", in
 * turn).
 *
 * Moves: `roll` (boardgame.io's own `random.D6()`), then, if the die allows,
 * `move(piece)`. A 6 lets a piece leave base for its start cell (progress 0)
 * and earns another roll; a third 6 in a row is lost and ends the turn. Home
 * needs the exact number. Ending on a ring cell that is not one of the eight
 * safe cells sends the other seats' pieces there back to base. With no legal
 * move the turn passes, except after a 6. The first seat with all four pieces
 * home wins. Parlour's forced moves (a lone legal move played for the seat)
 * are left out: here the seat always sends it.
 */

const { INVALID_MOVE } = require('boardgame.io/core');

const SEATS = 4;
const PIECES = 4;
const BASE = -1;
const RING_LAST = 50;
const HOME = 56;
const RING_CELLS = 52;
// Each colour's start cell (13·c) and star cell (13·c + 8), docs/rules.md "Ludo": Board.
const SAFE_CELLS = new Set([0, 8, 13, 21, 26, 34, 39, 47]);

/** The ring cell (0..51) of `progress` for `seat`, or null off the ring. */
function cell(seat, progress) {
  return progress >= 0 && progress <= RING_LAST ? (13 * seat + progress) % RING_CELLS : null;
}

/** The indices (0..3) of `pieces` (one seat's progress values) that `die` lets move. */
function legalPieces(pieces, die) {
  const legal = [];
  pieces.forEach((p, i) => {
    if (p === BASE ? die === 6 : p !== HOME && p + die <= HOME) legal.push(i);
  });
  return legal;
}

const Ludo = {
  name: 'ludo',
  minPlayers: SEATS,
  maxPlayers: SEATS,

  setup: () => ({
    pieces: Array.from({ length: SEATS }, () => Array(PIECES).fill(BASE)),
    die: null,
    legal: [],
    sixes: 0,
  }),

  moves: {
    roll: ({ G, ctx, random, events }) => {
      if (G.die !== null) return INVALID_MOVE;
      const die = random.D6();
      G.sixes = die === 6 ? G.sixes + 1 : 0;
      if (G.sixes === 3) {
        G.sixes = 0;
        events.endTurn();
        return;
      }
      const legal = legalPieces(G.pieces[+ctx.currentPlayer], die);
      if (legal.length > 0) {
        G.die = die;
        G.legal = legal;
      } else if (die !== 6) {
        events.endTurn();
      }
    },

    move: ({ G, ctx, events }, piece) => {
      if (G.die === null || !G.legal.includes(piece)) return INVALID_MOVE;
      const seat = +ctx.currentPlayer;
      const from = G.pieces[seat][piece];
      const to = from === BASE ? 0 : from + G.die;
      G.pieces[seat][piece] = to;
      const landed = cell(seat, to);
      if (landed !== null && !SAFE_CELLS.has(landed)) {
        G.pieces.forEach((theirs, other) => {
          if (other === seat) return;
          theirs.forEach((p, i) => {
            if (cell(other, p) === landed) theirs[i] = BASE;
          });
        });
      }
      const again = G.die === 6;
      G.die = null;
      G.legal = [];
      if (!again) {
        G.sixes = 0;
        events.endTurn();
      }
    },
  },

  endIf: ({ G }) => {
    const winner = G.pieces.findIndex((pieces) => pieces.every((p) => p === HOME));
    return winner >= 0 ? { winner: String(winner) } : undefined;
  },
};

module.exports = { Ludo, SEATS, legalPieces };
