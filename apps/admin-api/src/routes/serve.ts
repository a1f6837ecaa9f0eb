import { adminRoutes } from '@readlib/contracts';
import { servesOf, success } from '@readlib/http';

/** Registers a route of the admin table (`adminRoutes`) with its handler. */
export const serve = servesOf('admin', adminRoutes);

export const ok = <T>(data: T) => success('admin', data) as { code: number; msg: string; data: T };
export const ack = () => ({ code: 0, msg: 'success', data: null });
