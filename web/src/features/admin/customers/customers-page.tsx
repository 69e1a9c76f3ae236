import { Route, Routes } from 'react-router';
import { CustomerDetail } from './customer-detail';
import { CustomerList } from './customer-list';

/** `/admin/customers/*`: the list and one customer. */
export function CustomersPage() {
  return (
    <Routes>
      <Route index element={<CustomerList />} />
      <Route path=":id" element={<CustomerDetail />} />
    </Routes>
  );
}
