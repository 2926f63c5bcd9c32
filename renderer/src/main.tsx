import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('internal: #root missing from index.html');
createRoot(root).render(<App />);
