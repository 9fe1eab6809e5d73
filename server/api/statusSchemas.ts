import { AuthStatusSchema, CardStateStatusSchema } from '../core/shapes/accessStatus';
import { DoctorFixReportSchema, DoctorReportSchema } from '../core/shapes/doctor';
import { StorageStatusSchema, WorkspaceInfoSchema } from '../core/shapes/workspaceStatus';

/**
 * Response schemas of the status routes (workspace, storage, card-state status, auth, doctor): the
 * shapes of core/shapes, under the names the routes import. Provider entries stay open
 * (`additionalProperties: true`): each provider reports its own details.
 */

export const storageSchema = StorageStatusSchema;
export const workspaceSchema = WorkspaceInfoSchema;
export const cardStateStatusSchema = CardStateStatusSchema;
export const authStatusSchema = AuthStatusSchema;
export const doctorReportSchema = DoctorReportSchema;
export const doctorFixSchema = DoctorFixReportSchema;
