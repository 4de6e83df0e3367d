import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { profileFields } from '../kb-shapes';
import { PersonaEntity } from './persona.entity';

export const personaResource = defineKbResource({
  name: 'Persona',
  path: 'personas',
  idParam: 'persona_id',
  idPrefix: ID_PREFIXES.persona,
  entity: PersonaEntity,
  fields: profileFields,
});
