import { diagnose, fixWorkspace } from '../../service/doctor';
import { defineRoutes } from '../route';
import { doctorFixSchema, doctorReportSchema } from '../statusSchemas';

export const doctorRoutes = defineRoutes([
  {
    method: 'get',
    path: '/workspace/doctor',
    tag: 'Workspace',
    summary:
      "Problems with the board's files: duplicate ids, misplaced or broken files, unknown config keys, orphaned statuses, generated files git would pick up",
    response: doctorReportSchema,
    handle: ({ ws }) => diagnose(ws),
  },
  {
    method: 'post',
    path: '/workspace/doctor/fix',
    tag: 'Workspace',
    summary:
      'Repair what can be repaired without losing anything (never a file that does not parse), then report what remains',
    errors: [409],
    role: 'admin',
    response: doctorFixSchema,
    handle: ({ ws }) => fixWorkspace(ws),
  },
]);
