#!/usr/bin/env python3
"""A small bot for the Preferans server's bot API (docs/bot-api.md).

It plays legal random moves: the server tells every seat its legal actions when it is
to act (`turn.legal` in a snapshot or an event), so the bot needs no rules of its own.
The standard library and `websockets` (Debian: python3-websockets) are all it needs.

    python3 examples/bot.py --server http://127.0.0.1:8080 --token prefbot_...

With no --table it waits for a host's invitation (GET /api/bot/invitations) and takes
the seat kept for it; with --table ID --invite KEY it takes a seat by the invite link's
key. It plays until the game is over, or until --deals deals have finished.
"""

import argparse
import asyncio
import json
import random
import sys
import time
import urllib.error
import urllib.request

try:  # websockets 13 and later
    from websockets.asyncio.client import connect

    HEADERS = "additional_headers"
except ImportError:  # websockets 10 to 12 (Debian bookworm has 10.4)
    from websockets import connect

    HEADERS = "extra_headers"


class ApiError(Exception):
    """An HTTP error in the documented {"error", "message"} shape."""


def request(server, token, method, path, body=None):
    """One HTTP request with the bot's token; the answer's JSON."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as e:
        err = json.load(e)
        raise ApiError(f"{e.code} {err['error']}: {err['message']}") from None


def invitation(server, token, poll):
    """Waits for a host to keep a seat for this bot; (table, seat)."""
    while True:
        found = request(server, token, "GET", "/api/bot/invitations")["invitations"]
        if found:
            return found[0]["table"], found[0]["seat"]
        time.sleep(poll)


def take_seat(server, token, table, seat=None, invite=None):
    """Claims a seat with the browser's request; the bot sits under its account's name."""
    body = {"name": "bot"}
    if seat is not None:
        body["seat"] = seat
    if invite is not None:
        body["invite"] = invite
    return request(server, token, "POST", f"/api/tables/{table}/seats", body)["seat"]


async def play(server, token, table, deals, rng):
    """Plays the seat the token holds at `table` until the game is over or `deals` deals
    have finished; returns the deals finished."""
    url = server.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
    headers = {"Authorization": "Bearer " + token}
    finished = 0
    async with connect(url, **{HEADERS: headers}) as ws:
        version = 0
        async for text in ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind in ("snapshot", "event"):
                version = msg["version"]
            if kind == "event" and msg.get("event") and msg["event"].get("kind") == "deal_finished":
                finished += 1
                print(f"deal {msg['event']['deal_no']} finished", flush=True)
                if msg["event"].get("game_over") or (deals and finished >= deals):
                    return finished
            if kind == "event" and msg.get("event") and msg["event"].get("kind") == "game_over":
                return finished
            if kind == "rejected":
                print(f"refused: {msg['reason']}: {msg['message']}", file=sys.stderr, flush=True)
            legal = (msg.get("turn") or {}).get("legal") or []
            if legal:
                action = rng.choice(legal)
                await ws.send(json.dumps(
                    {"type": "action", "id": f"a{version}", "version": version, "action": action}))
    return finished


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", required=True, help="the server's address, http://host:port")
    p.add_argument("--token", required=True, help="the bot account's API token, prefbot_...")
    p.add_argument("--table", help="a table's id; without it, wait for an invitation")
    p.add_argument("--invite", help="the invite key of the table's invite link")
    p.add_argument("--deals", type=int, default=0, help="stop after this many deals (0: the game)")
    p.add_argument("--poll", type=float, default=2.0, help="seconds between invitation checks")
    p.add_argument("--seed", type=int, help="the random moves' seed")
    args = p.parse_args()
    server = args.server.rstrip("/")
    try:
        me = request(server, args.token, "GET", "/api/bot")
        if args.table:
            table, seat = args.table, take_seat(server, args.token, args.table, invite=args.invite)
        else:
            table, kept = invitation(server, args.token, args.poll)
            seat = take_seat(server, args.token, table, seat=kept)
        print(f"{me['name']} sits in seat {seat} at {table}", flush=True)
        done = asyncio.run(play(server, args.token, table, args.deals, random.Random(args.seed)))
    except ApiError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"played {done} deals", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
