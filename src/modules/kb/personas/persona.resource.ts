import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { profileFields } from '../kb-shapes';
import { PersonaEntity } from './persona.entity';

/** The Personas' service; a console backend injects it by this class. */
export class PersonasService extends KbService<PersonaEntity> {}

export const personaResource = defineKbResource({
  name: 'Persona',
  path: 'personas',
  idParam: 'persona_id',
  idPrefix: 'per_',
  entity: PersonaEntity,
  service: PersonasService,
  fields: profileFields,
});
