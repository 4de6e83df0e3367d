import { fieldForParam, placeError } from './field-errors';

const fields = ['name', 'short_name', 'description', 'url'];

describe('fieldForParam', () => {
  it('names the field of a plain param', () => {
    expect(fieldForParam('short_name', fields)).toBe('short_name');
  });

  it('reads the first segment of a path', () => {
    expect(fieldForParam('url.host', fields)).toBe('url');
    expect(fieldForParam('enabled_events[2]', ['url', 'enabled_events'])).toBe('enabled_events');
  });

  it('maps a segment through an alias', () => {
    expect(fieldForParam('criteria[0].value', fields, { criteria: 'description' })).toBe('description');
  });

  it('leaves unknown, empty or missing params to the form top', () => {
    expect(fieldForParam('criteria[0].value', fields)).toBeNull();
    expect(fieldForParam('limit', fields)).toBeNull();
    expect(fieldForParam('', fields)).toBeNull();
    expect(fieldForParam(undefined, fields)).toBeNull();
    expect(fieldForParam('[0]', fields)).toBeNull();
  });
});

describe('placeError', () => {
  it('places a validation error at its param', () => {
    expect(placeError({ status: 400, code: 'validation_error', message: 'name is required', param: 'name' }, fields)).toEqual({
      field: 'name',
      message: 'name is required',
    });
  });

  it('places a conflict at short_name', () => {
    expect(placeError({ status: 409, code: 'conflict', message: 'short_name taken' }, fields).field).toBe('short_name');
  });

  it('sends other errors to the form top', () => {
    expect(placeError({ status: 500, code: 'internal_error', message: 'boom', param: 'name' }, fields).field).toBeNull();
    expect(placeError({ status: 409, code: 'conflict', message: 'taken' }, ['url']).field).toBeNull();
  });
});
