import type { Response } from 'supertest';

/** Asserts the documented error envelope and returns its `error` object. */
export function expectError(res: Response, status: number, code: string, param?: string): Record<string, unknown> {
  if (res.status !== status) {
    throw new Error(`Expected ${status} ${code}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  expect(res.body).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String), request_id: expect.stringMatching(/^req_[0-9a-z]+$/) }),
  });
  expect(res.headers['x-request-id']).toBe(res.body.error.request_id);
  if (param === undefined) {
    expect(res.body.error).not.toHaveProperty('param');
  } else {
    expect(res.body.error.param).toBe(param);
  }
  return res.body.error;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
