import { onBeforeUnmount, onMounted, type Ref, ref } from 'vue';

/** Below this width (a phone, a narrow window) the menu folds into a drawer and pages take one column. */
export const NARROW_QUERY = '(max-width: 768px)';

/** Whether the window is narrow now, following its resizes. */
export function useNarrow(): Ref<boolean> {
  const media = window.matchMedia(NARROW_QUERY);
  const narrow = ref(media.matches);
  const changed = (event: MediaQueryListEvent) => {
    narrow.value = event.matches;
  };
  onMounted(() => media.addEventListener('change', changed));
  onBeforeUnmount(() => media.removeEventListener('change', changed));
  return narrow;
}
