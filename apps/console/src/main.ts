import { createApp } from 'vue';
import App from './app.vue';
import { i18n } from './i18n/i18n';
import { router } from './router';
import './styles/console.css';

createApp(App).use(i18n).use(router).mount('#app');
