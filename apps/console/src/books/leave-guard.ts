import { ElMessageBox } from 'element-plus';
import 'element-plus/es/components/message-box/style/css';
import { onBeforeUnmount, onMounted } from 'vue';
import { useI18n } from 'vue-i18n';
import { onBeforeRouteLeave, type RouteLocationNormalized } from 'vue-router';
import { holdWork } from '../session/sign-in-again';

export interface LeaveGuard {
  /** whether the page may go to `to`: asks the operator when there is work to lose */
  mayLeave(to: RouteLocationNormalized): Promise<boolean>;
}

/**
 * A page holding work the catalogue does not have yet (unsaved edits, a parsed upload not added):
 * leaving it asks first, inside the console ("Unsaved changes", Leave / Stay) and by the browser on a
 * reload or a closed tab. Call from a page's setup; `unsaved` is read at each attempt to leave.
 *
 * While `unsaved`, an ended session asks for the login over the page (session/sign-in-again.ts). The
 * login page is never refused: the operator chose it there instead (`sessionEnded` is then called, for
 * the page to keep its work for after the login), and Log out is their own choice too.
 */
export function useLeaveGuard(options: {
  unsaved: () => boolean;
  /** message key of the question, e.g. `edit.unsavedBody` */
  question: string;
  sessionEnded?: () => void;
}): LeaveGuard {
  const { t } = useI18n();

  async function mayLeave(to: RouteLocationNormalized): Promise<boolean> {
    if (!options.unsaved()) return true;
    if (to.name === 'login') {
      // the router's redirect after a refused token (router.ts) says `expired`
      if (to.query.expired) options.sessionEnded?.();
      return true;
    }
    try {
      await ElMessageBox.confirm(t(options.question), t('edit.unsavedTitle'), {
        type: 'warning',
        confirmButtonText: t('edit.leave'),
        cancelButtonText: t('edit.stay'),
        confirmButtonType: 'danger',
      });
      return true;
    } catch {
      return false;
    }
  }
  onBeforeRouteLeave(mayLeave);

  function beforeUnload(event: BeforeUnloadEvent) {
    if (!options.unsaved()) return;
    event.preventDefault();
    // Chromium before 119 asks only when returnValue is set
    event.returnValue = '';
  }
  let release: (() => void) | undefined;
  onMounted(() => {
    window.addEventListener('beforeunload', beforeUnload);
    release = holdWork(options.unsaved);
  });
  onBeforeUnmount(() => {
    window.removeEventListener('beforeunload', beforeUnload);
    release?.();
  });

  return { mayLeave };
}
