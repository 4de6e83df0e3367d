import { defineKbResource } from '../../../shared/application/kb-resource';
import { profileFields } from '../kb-shapes';
import { PersonaEntity } from './persona.entity';

export const personaResource = defineKbResource({
  name: 'Persona',
  path: 'personas',
  idParam: 'persona_id',
  idPrefix: 'per_',
  entity: PersonaEntity,
  fields: profileFields,
});
