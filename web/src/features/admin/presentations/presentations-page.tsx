import { Route, Routes } from 'react-router';
import { PresentationEditor } from './presentation-editor';
import { PresentationList } from './presentation-list';

/** `/admin/presentations/*`: the list, a new presentation, one presentation's slide builder. */
export function PresentationsPage() {
  return (
    <Routes>
      <Route index element={<PresentationList />} />
      <Route path="new" element={<PresentationEditor />} />
      <Route path=":id" element={<PresentationEditor />} />
    </Routes>
  );
}
