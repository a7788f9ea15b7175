import { createPinia } from 'pinia'
import { createApp } from 'vue'
import { createDesk, deskKey } from './api/desk'
import { chooseTransport } from './api/transport'
import App from './App.vue'
import { createDeskRouter } from './router'
import './styles/main.css'

// The transport is chosen (and a browser's UI secret taken out of the address) before the router reads it.
const desk = createDesk(chooseTransport(window))
createApp(App).provide(deskKey, desk).use(createPinia()).use(createDeskRouter()).mount('#app')
