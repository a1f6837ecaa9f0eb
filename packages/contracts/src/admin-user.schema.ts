import { type Static, Type } from '@sinclair/typebox';
import { MaxLength, requiredString } from './fields.js';

/** POST /user/login body (spec §4.11). */
export const LoginBody = Type.Object(
  {
    username: requiredString(MaxLength.username, 'Login account.'),
    password: requiredString(MaxLength.password, 'Password.'),
  },
  { $id: 'LoginBody', additionalProperties: false, description: 'Operator login (spec §4.11).' },
);
export interface LoginBody extends Static<typeof LoginBody> {}

/** POST /user/login data (spec §5). */
export const LoginData = Type.Object(
  { token: Type.String({ description: 'JWT, sent as `Authorization: Bearer <token>`.' }) },
  { $id: 'LoginData', description: 'Login token (spec §5).' },
);
export interface LoginData extends Static<typeof LoginData> {}

/** GET/POST /user/info data (spec §2.11). */
export const AdminUser = Type.Object(
  {
    avatar: Type.String({ description: 'Avatar URL.' }),
    id: Type.Integer({ description: 'Operator id.' }),
    nickname: Type.String({ description: 'Nickname.' }),
    username: Type.String({ description: 'Login account.' }),
    roles: Type.Array(Type.String(), { description: 'Permissions of the operator.' }),
  },
  { $id: 'AdminUser', description: 'Administration user (spec §2.11).' },
);
export interface AdminUser extends Static<typeof AdminUser> {}

/** GET /book/home (admin) data: catalogue totals (spec §4.11). */
export const DashboardTotals = Type.Object(
  {
    book: Type.Integer({ minimum: 0, description: 'Total e-books.' }),
    rank: Type.Integer({ minimum: 0, description: 'Total ratings.' }),
    shelf: Type.Integer({ minimum: 0, description: 'Total shelf entries.' }),
    user: Type.Integer({ minimum: 0, description: 'Total users.' }),
  },
  { $id: 'DashboardTotals', description: 'Dashboard totals (spec §4.11).' },
);
export interface DashboardTotals extends Static<typeof DashboardTotals> {}
