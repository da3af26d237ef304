import { createRoot } from 'react-dom/client'
import 'tldraw/tldraw.css'
import './styles.css'
import { App } from './App.jsx'
import { readPageParams } from './pageParams.js'

createRoot(document.getElementById('root')).render(<App params={readPageParams()} />)
