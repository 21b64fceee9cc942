import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { idleGate } from './idleGate.js';

/** A request through the gate's middleware; the returned function ends its response. */
function begin(gate: ReturnType<typeof idleGate>): () => void {
  const res = new EventEmitter();
  let passed = false;
  gate.middleware(
    {} as Request,
    res as unknown as Response,
    (() => {
      passed = true;
    }) as NextFunction,
  );
  expect(passed).toBe(true);
  return () => res.emit('close');
}

describe('idleGate', () => {
  it('resolves at once when nothing has happened for the quiet time', async () => {
    let clock = 0;
    const gate = idleGate(() => clock);
    clock = 500;
    await gate.whenIdle(200);
  });

  it('lets the event loop turn before it resolves, even when idle', async () => {
    let clock = 0;
    const gate = idleGate(() => clock);
    clock = 500;
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    await gate.whenIdle(200);
    expect(turned).toBe(true);
  });

  it('waits while a request is in flight and for the quiet time after it ended', async () => {
    let clock = 1_000;
    const gate = idleGate(() => clock);
    const end = begin(gate);
    let idle = false;
    const waiting = gate.whenIdle(200).then(() => {
      idle = true;
    });
    clock = 5_000;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(idle).toBe(false);
    end();
    clock = 5_100;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(idle).toBe(false);
    clock = 5_200;
    await waiting;
    expect(idle).toBe(true);
  });

  it('counts overlapping requests until the last one ends', async () => {
    let clock = 0;
    const gate = idleGate(() => clock);
    const endFirst = begin(gate);
    const endSecond = begin(gate);
    endFirst();
    clock = 1_000;
    let idle = false;
    const waiting = gate.whenIdle(200).then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(idle).toBe(false);
    endSecond();
    clock = 2_000;
    await waiting;
    expect(idle).toBe(true);
  });
});

describe('idleGate.markActivity', () => {
  it('starts the quiet time over, as a request that has just ended would', async () => {
    let clock = 0;
    const gate = idleGate(() => clock);
    clock = 10_000;
    gate.markActivity();
    let idle = false;
    const waiting = gate.whenIdle(200).then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(idle).toBe(false);
    clock = 10_200;
    await waiting;
    expect(idle).toBe(true);
  });
});

describe('idleGate.close', () => {
  it('passes requests on without a listener on their responses once closed', () => {
    const gate = idleGate(() => 0);
    const res = new EventEmitter();
    gate.middleware({} as Request, res as unknown as Response, (() => {}) as NextFunction);
    expect(res.listenerCount('close')).toBe(1);
    gate.close();
    const later = new EventEmitter();
    let passed = false;
    gate.middleware(
      {} as Request,
      later as unknown as Response,
      (() => {
        passed = true;
      }) as NextFunction,
    );
    expect(passed).toBe(true);
    expect(later.listenerCount('close')).toBe(0);
  });
});
