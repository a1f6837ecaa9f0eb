import { ElMessage, ElMessageBox } from 'element-plus';
import 'element-plus/es/components/message/style/css';
import 'element-plus/es/components/message-box/style/css';
import { api } from '../api/admin-api';
import { i18n } from '../i18n/i18n';

/**
 * Asks the operator to confirm, then deletes the book and says so. Resolves false when the operator
 * cancelled; a refusal of the service rejects with its ApiError. The title is shown as text.
 */
export async function confirmAndDelete(book: { fileName: string; title: string }): Promise<boolean> {
  const { t } = i18n.global;
  try {
    await ElMessageBox.confirm(t('books.confirmDelete', { title: book.title }), t('books.confirmTitle'), {
      type: 'warning',
      // the focus on the dialog itself, not on Delete: an Enter pressed once too often (the one that
      // opened it from a focused row button, say) must not delete; Tab reaches Cancel and Delete
      autofocus: false,
      confirmButtonType: 'danger',
      confirmButtonText: t('common.delete'),
      cancelButtonText: t('common.cancel'),
    });
  } catch {
    return false;
  }
  await api.deleteBook({ fileName: book.fileName });
  ElMessage.success(t('books.deleted', { title: book.title }));
  return true;
}
