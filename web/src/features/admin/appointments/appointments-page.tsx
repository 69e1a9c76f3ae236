import { Route, Routes } from 'react-router';
import { AppointmentEditor } from './appointment-editor';
import { AppointmentList } from './appointment-list';

/** `/admin/appointments/*`: the list, a new appointment, one appointment (with its invitations). */
export function AppointmentsPage() {
  return (
    <Routes>
      <Route index element={<AppointmentList />} />
      <Route path="new" element={<AppointmentEditor />} />
      <Route path=":id" element={<AppointmentEditor />} />
    </Routes>
  );
}
